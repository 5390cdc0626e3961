/**
 * The customer's code under test: onboarding a merchant calls Osiris and decides from the Search.
 * In production it talks to the real host; in the test suite, to a sandbox host.
 */
export interface Decision {
  readonly searchId: string
  /** `approve`, `refuse`, or `review` (a person looks at it: the TIN authority was unavailable). */
  readonly outcome: "approve" | "refuse" | "review"
  readonly approved: boolean
  readonly reasons: ReadonlyArray<string>
}

/** What the onboarding form collected. */
export interface Merchant {
  readonly name: string
  readonly address: string
  readonly tin?: string
}

/** Verifies a merchant and decides. */
export const onboard = async (
  osiris: { readonly baseUrl: string; readonly apiKey: string },
  merchant: Merchant
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
    tin_matched: boolean | null
    warnings: ReadonlyArray<string>
  }
  const reasons = [
    ...(search.verified ? [] : ["not verified"]),
    ...(search.watchlist_hits.length > 0 ? ["watchlist hit"] : []),
    ...(merchant.tin !== undefined && search.tin_matched === false ? ["TIN does not match"] : [])
  ]
  const unchecked = merchant.tin !== undefined && search.tin_matched === null
  const outcome = reasons.length > 0 ? "refuse" : unchecked ? "review" : "approve"
  return {
    searchId: search.id,
    outcome,
    approved: outcome === "approve",
    reasons: unchecked ? [...reasons, ...search.warnings] : reasons
  }
}
