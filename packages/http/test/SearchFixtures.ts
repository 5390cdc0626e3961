/** Searches as the host stores them, for the repository suites (the host itself comes from the testkit). */
import { Engine, Formats, type Search, type SearchRequest } from "@osiris/core"
import { TestHost } from "@osiris/testkit"

/** The user searches are recorded under in these suites. */
export const user: Search.SearchUser = {
  id: "0192f3a4-5b6c-7d8e-9f01-0000000000bb" as Search.SearchUser["id"],
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com"
}

/** A PENDING Search for a request, as the host stores it at creation. */
export const pendingFor = (
  request: SearchRequest.CreateSearchRequest,
  id: string,
  idempotencyKey: string | null = null
): Search.Search => {
  const at = Formats.timestampFromMillis(Date.UTC(2026, 10, 21, 12))
  return Engine.pendingSearch(request, {
    id: id as Search.Search["id"],
    created_at: at,
    updated_at: at,
    options: [],
    orderables: [],
    user,
    idempotency_key: idempotencyKey
  }, { baseUrl: TestHost.BASE_URL })
}
