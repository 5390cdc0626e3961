import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { Engine, Formats, Registry, Search, type SearchRequest, Tin, Watchlist, Website } from "../src/index.js"

const record = (u: Record<string, unknown>) => Either.getOrThrow(Registry.decodeRecord(u))

const ACME = "0192f3a4-5b6c-7d8e-9f01-000000000001"
const OTHER = "0192f3a4-5b6c-7d8e-9f01-000000000002"

const registry = [
  record({
    id: ACME,
    name: "Acme Widgets, Inc.",
    alternative_names: ["Widget World"],
    address: "123 N Main St, Springfield, IL 62701",
    addresses: [{ street: "123 N Main St", city: "Springfield", state: "IL", zip: "62701", sources: ["SOS"] }],
    phone_number: "(217) 555-0123",
    website: "https://www.acme-widgets.example",
    ein: "12-3456789",
    business_officers: [{ name: "Jane Q. Doe", titles: ["President"] }, {
      name: "Robert Smith",
      titles: ["Secretary"]
    }],
    registrations: [{
      name: "ACME WIDGETS, INC.",
      state: "IL",
      status: "ACTIVE",
      standing: "GOOD",
      registered_agent: { name: "Illinois Registered Agents LLC" }
    }]
  }),
  record({
    id: OTHER,
    name: "Gadget Partners LLC",
    address: "9 Elm St, Chicago, IL 60601",
    addresses: [{ street: "9 Elm St", city: "Chicago", state: "IL", zip: "60601" }],
    ein: "98-7654321"
  })
]

const config = { baseUrl: "https://api.osiris.test" }
const EngineLive = Engine.Engine.layerDefaults(config, Registry.Registry.layerMemory(registry), {
  watchlist: Watchlist.WatchlistSource.layerMemory("TEST LIST", [
    { id: "L1", name: "Gadget Partners", kind: "entity", programs: ["TEST"], aliases: [] },
    { id: "L2", name: "DOE, Jane", kind: "individual", programs: ["TEST"], aliases: [] }
  ]),
  websites: Website.WebsiteResolver.layerMemory({ "widgetworld.example": "https://acme-widgets.example/" })
})

const verify = (request: SearchRequest.CreateSearchRequest, businessId?: string) =>
  Effect.flatMap(Engine.Engine, (e) => e.verify(businessId === undefined ? { request } : { request, businessId }))

describe("Engine", () => {
  layer(EngineLive)((it) => {
    it.effect("verifies an exact request with every indicator", () =>
      Effect.gen(function*() {
        const v = yield* verify({
          name: "ACME WIDGETS INCORPORATED",
          address: "123 North Main Street, Springfield, IL 62701",
          officer_names: ["Doe, Jane"],
          website: "acme-widgets.example",
          tin: "12-3456789",
          phone_number: "217-555-0123",
          reference_id: "r-1"
        })
        expect(v).toMatchObject({
          state: "COMPLETED",
          business_name_match: "EXACT",
          business_address_match: "EXACT",
          business_officer_match: "EXACT",
          registered_agent_match: "NO_MATCH",
          business_website_match: true,
          business_website_redirect_match: false,
          search_address_validation_level: "FULL",
          tin_matched: true,
          tin_match_type: "EIN",
          tin_potential_match: null,
          verified: true,
          error: null,
          warnings: [],
          reference_id: "r-1"
        })
        expect(v.business?.id).toBe(ACME)
        expect(v.business?.url).toBe(`https://api.osiris.test/businesses/${ACME}`)
        expect(v.business?.console_url).toBe(`https://api.osiris.test/console/business/${ACME}`)
        expect(v.search_address).toMatchObject({
          street: "123 N MAIN ST",
          city: "SPRINGFIELD",
          state: "IL",
          zip: "62701"
        })
        expect(v.scores.map((s) => s.rating)).toStrictEqual(["A", "F"])
        // The officer is on the test list: a hit on the search and on the business record.
        expect(v.watchlist_hits.map((h) => [h.entity_id, h.matched])).toStrictEqual([["L2", "Doe, Jane"], [
          "L2",
          "Jane Q. Doe"
        ]])
        // On the business record: only the hits on its own names and officers.
        expect(v.business?.watchlist_hits.map((h) => [h.entity_id, h.matched])).toStrictEqual([["L2", "Jane Q. Doe"]])
      }))

    it.effect("grades a near request SIMILAR and still verifies it", () =>
      Effect.gen(function*() {
        const v = yield* verify({ name: "Acme Widgest LLC", address: "123 Main Street, Springfield, IL" })
        expect(v).toMatchObject({
          state: "COMPLETED",
          business_name_match: "SIMILAR",
          business_address_match: "SIMILAR",
          business_officer_match: null,
          business_website_match: null,
          verified: true
        })
      }))

    it.effect("fails with no match when nothing is close (DECISIONS section 6)", () =>
      Effect.gen(function*() {
        const v = yield* verify({ name: "Totally Different Bakery", address: "77 Oak Ave, Boston, MA 02108" })
        expect(v).toMatchObject({
          state: "FAILED",
          error: "No match found.",
          verified: false,
          business: null,
          business_name_match: null
        })
      }))

    it.effect("reports a TIN that belongs to another business", () =>
      Effect.gen(function*() {
        const v = yield* verify({
          name: "Acme Widgets Inc",
          address: "123 N Main St, Springfield, IL 62701",
          tin: "987654321"
        })
        expect(v).toMatchObject({ tin_matched: false, tin_potential_match: "Gadget Partners LLC", verified: false })
      }))

    it.effect("matches a website through a redirect", () =>
      Effect.gen(function*() {
        const v = yield* verify({
          name: "Acme Widgets Inc",
          address: "123 N Main St, Springfield, IL 62701",
          website: "http://widgetworld.example/shop"
        })
        expect(v).toMatchObject({ business_website_match: true, business_website_redirect_match: true })
      }))

    it.effect("uses the business of a token (form 2)", () =>
      Effect.gen(function*() {
        const v = yield* verify({ business_token: "tok" }, OTHER)
        expect(v).toMatchObject({ state: "COMPLETED", name: "Gadget Partners LLC", business_name_match: "EXACT" })
        expect(v.watchlist_hits.map((h) => h.entity_id)).toStrictEqual(["L1"])
      }))

    it.effect("is deterministic and assembles a valid contract Search", () =>
      Effect.gen(function*() {
        const request = {
          name: "Acme Widgets",
          address: "123 N Main St, Springfield, IL 62701",
          options: ["Order.Pep" as const]
        }
        const a = yield* verify(request)
        const b = yield* verify(request)
        const meta: Engine.SearchMeta = {
          id: "0192f3a4-5b6c-7d8e-9f01-0000000000aa" as Search.Search["id"],
          created_at: Formats.timestampFromMillis(1_767_225_600_000),
          updated_at: Formats.timestampFromMillis(1_767_225_601_000),
          options: request.options,
          orderables: [],
          user: {
            id: "0192f3a4-5b6c-7d8e-9f01-0000000000bb" as Search.SearchUser["id"],
            first_name: "Ada",
            last_name: "Lovelace",
            email: "ada@example.com"
          },
          idempotency_key: null
        }
        const sa = Engine.toSearch(a, meta, config)
        expect(JSON.stringify(Schema.encodeSync(Search.Search)(sa))).toBe(
          JSON.stringify(Schema.encodeSync(Search.Search)(Engine.toSearch(b, meta, config)))
        )
        expect(sa.url).toBe("https://api.osiris.test/searches/0192f3a4-5b6c-7d8e-9f01-0000000000aa")
        expect(sa.status_url).toBe(`${sa.url}/status`)
        expect(sa.business_url).toBe(`https://api.osiris.test/businesses/${ACME}/status`)
        expect(sa.console_url).toBe("https://api.osiris.test/console/searches/0192f3a4-5b6c-7d8e-9f01-0000000000aa")
      }))
  })

  it.effect("warns when the TIN authority is down", () =>
    Effect.gen(function*() {
      const v = yield* verify({
        name: "Acme Widgets Inc",
        address: "123 N Main St, Springfield, IL 62701",
        tin: "12-3456789"
      })
      expect(v).toMatchObject({ tin_matched: null, warnings: ["TIN validation is unavailable."], verified: true })
    }).pipe(Effect.provide(
      Engine.Engine.layerDefaults(config, Registry.Registry.layerMemory(registry), {
        tin: Tin.TinAuthority.layerUnavailable,
        watchlist: Watchlist.WatchlistSource.layerEmpty
      })
    )))

  it.effect("screens against the bundled OFAC SDN list by default", () =>
    Effect.gen(function*() {
      const v = yield* verify({ name: "Banco Nacional de Cuba", address: "1 Main St, Miami, FL 33101" })
      expect(v.watchlist_hits[0]).toMatchObject({ list: "OFAC SDN", entity_id: "306", programs: ["CUBA"] })
      expect(v.scores[1]!.rating).toBe("F")
    }).pipe(Effect.provide(Engine.Engine.layerDefaults(config, Registry.Registry.layerMemory(registry)))), 30_000)
})
