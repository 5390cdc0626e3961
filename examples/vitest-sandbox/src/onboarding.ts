/**
 * The customer's code under test: onboarding a merchant calls Osiris and decides from the Search.
 * In production it talks to the real host; in the test suite, to a sandbox host.
 */
export interface Decision {
  readonly searchId: string
  readonly approved: boolean
  readonly reasons: ReadonlyArray<string>
}

/** Verifies a merchant and decides. */
export const onboard = async (
  osiris: { readonly baseUrl: string; readonly apiKey: string },
  merchant: { readonly name: string; readonly address: string }
): Promise<Decision> => {
  const res = await fetch(`${osiris.baseUrl}/searches`, {
    method: "POST",
    headers: { "x-api-key": osiris.apiKey, "content-type": "application/json", prefer: "wait=30" },
    body: JSON.stringify(merchant)
  })
  if (res.status !== 201) throw new Error(`Osiris answered ${res.status}: ${await res.text()}`)
  const search = (await res.json()) as {
    id: string
    verified: boolean
    watchlist_hits: ReadonlyArray<unknown>
    business_name_match: string | null
  }
  const reasons = [
    ...(search.verified ? [] : ["not verified"]),
    ...(search.watchlist_hits.length > 0 ? ["watchlist hit"] : [])
  ]
  return { searchId: search.id, approved: reasons.length === 0, reasons }
}
