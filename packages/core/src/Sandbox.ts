/**
 * The sandbox fixture registry: 120 fictional businesses with complete contract records
 * (registrations with registered agents and standing, officers, several addresses with sources,
 * websites, EINs, phones, reviews, directory listings, predicted NAICS; six with watchlist hits),
 * shipped as data (src/data/sandbox-registry.json, made by `npm run fixtures`). The host's sandbox
 * keys search it; the testkit exposes it to test suites.
 */
import data from "./data/sandbox-registry.json" with { type: "json" }
import { decodeRecord, type RegistryBusiness } from "./Registry.js"

let records: ReadonlyArray<RegistryBusiness> | undefined

/** The fixture registry (decoded once). */
export const registry = (): ReadonlyArray<RegistryBusiness> => {
  if (records === undefined) {
    records = (data as ReadonlyArray<unknown>).map((u, i) => {
      const r = decodeRecord(u)
      if (r._tag === "Left") throw new Error(`sandbox registry record ${i}: ${r.left}`)
      return r.right
    })
  }
  return records
}
