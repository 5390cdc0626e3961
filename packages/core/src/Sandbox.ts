/**
 * The sandbox: the fixture registry (120 fictional businesses with complete contract records:
 * registrations with registered agents and standing, officers, several addresses with sources,
 * websites, EINs, phones, reviews, directory listings, predicted NAICS; six with watchlist hits),
 * shipped as data (src/data/sandbox-registry.json, made by `npm run fixtures`), and the sandbox's
 * deterministic services with their magic inputs (documented in packages/testkit/README.md):
 *
 * - TIN authority: the registry's (a business's own EIN matches, another fixture's EIN is a potential
 *   match naming it), except `99-9999999`, for which the authority is unavailable.
 * - Website resolver: `<name>-redirect.<tld>` redirects to `<name>.<tld>`; nothing else redirects.
 * - Registry: the fixture registry; a search whose name holds the word "Slowpoke" takes
 *   `SLOW_SEARCH` (on the runtime's clock) before it answers.
 *
 * The host's sandbox keys run on these; the testkit exposes them to test suites.
 */
import { Effect, Layer } from "effect"
import { registrableDomain } from "./Contact.js"
import data from "./data/sandbox-registry.json" with { type: "json" }
import { decodeRecord, layerTinAuthority as registryTinAuthority, Registry, type RegistryBusiness } from "./Registry.js"
import * as Tin from "./Tin.js"
import * as Website from "./Website.js"

/** The TIN for which the sandbox's tax authority is unavailable (`tin_matched` null plus the warning). */
export const TIN_UNAVAILABLE = "99-9999999"

/** The word that makes a sandbox search slow. */
export const SLOW_WORD = "slowpoke"

/** How long a slow sandbox search takes (longer than `Prefer: wait=1`). */
export const SLOW_SEARCH = "3 seconds"

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

/** The sandbox registry: the records (default: the fixture registry), slow for "Slowpoke" names. */
export const layerRegistry = (records: ReadonlyArray<RegistryBusiness> = registry()) =>
  Layer.effect(
    Registry,
    Effect.map(Registry, (inner) => ({
      ...inner,
      search: (query, options) =>
        query.names.some((n) => n.tokens.includes(SLOW_WORD))
          ? Effect.zipRight(Effect.sleep(SLOW_SEARCH), inner.search(query, options))
          : inner.search(query, options)
    }))
  ).pipe(Layer.provide(Registry.layerMemory(records)))

/** The sandbox's tax authority over a registry: the registry's EINs, unavailable for `TIN_UNAVAILABLE`. */
export const layerTinAuthority = Layer.effect(
  Tin.TinAuthority,
  Effect.map(Tin.TinAuthority, (inner) => {
    const unavailable = Tin.digits(TIN_UNAVAILABLE)
    return Tin.TinAuthority.of({
      check: (tin, subject) =>
        tin === unavailable ? Effect.succeed(Tin.TinVerdict.Unavailable()) : inner.check(tin, subject)
    })
  })
).pipe(Layer.provide(registryTinAuthority))

/** The sandbox's website resolver: `<name>-redirect.<tld>` ends on `<name>.<tld>`. */
export const layerWebsites = Layer.succeed(Website.WebsiteResolver, {
  finalDomain: (website) =>
    Effect.sync(() => {
      const d = registrableDomain(website)
      const m = d === undefined ? null : /^(.+)-redirect\.([a-z0-9.-]+)$/.exec(d)
      return m === null ? d : `${m[1]}.${m[2]}`
    })
})
