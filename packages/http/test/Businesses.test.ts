import { describe, expect, it, layer } from "@effect/vitest"
import { Business, Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect } from "effect"

const registration = (over: Partial<Business.Registration> = {}): Business.Registration => ({
  id: "0192f3a4-5b6c-7d8e-9f01-00000000aa01" as Business.Registration["id"],
  name: "FILING",
  file_number: "F-1",
  state: "WA",
  status: "ACTIVE",
  issue_date: "2001-02-03" as Business.Registration["issue_date"],
  inactive_date: null,
  dissolution_date: null,
  address: null,
  registration_type: "DOMESTIC",
  standing: "GOOD",
  registered_agent: null,
  officers: [],
  ...over
})

// The synthetic records have no filings: the first one gets two.
const sandbox = Synthetic.registry(11, 40).map((r, i) =>
  i === 0
    ? {
      ...r,
      registrations: [registration(), registration({ status: "INACTIVE", inactive_date: "2015-06-07" as never })]
    }
    : r
)
const production = Synthetic.registry(12, 40)

const get = (base: string, key: string, path: string) => TestHost.call(base, key, "GET", path)

for (const backend of Backends.all()) {
  describe(`businesses on ${backend.name}`, () => {
    layer(TestHost.layer(backend, { sandboxRegistry: sandbox, productionRegistry: production }), {
      timeout: "60 seconds"
    })((it) => {
      it.effect("GET /businesses/{id} is the registry record with its URLs; status summarises registrations", () =>
        Effect.gen(function*() {
          const { base, key, live } = yield* TestHost.client
          const b = sandbox[0]!
          const r = yield* get(base, key, `/businesses/${b.id}`)
          expect(r.status).toBe(200)
          expect(r.body).toMatchObject({
            id: b.id,
            name: b.name,
            url: `${TestHost.BASE_URL}/businesses/${b.id}`,
            console_url: `${TestHost.BASE_URL}/console/business/${b.id}`,
            registrations: b.registrations
          })
          const s = yield* get(base, key, `/businesses/${b.id}/status`)
          expect(s.status).toBe(200)
          expect(s.body).toStrictEqual({
            id: b.id,
            name: b.name,
            status: "ACTIVE",
            standing: "GOOD",
            updated_at: "2015-06-07T00:00:00.000000"
          })
          expect(Object.keys(s.body)).toStrictEqual(["id", "name", "status", "standing", "updated_at"])
          // Production keys search the production registry.
          const p = production[0]!
          expect((yield* get(base, live, `/businesses/${p.id}`)).body.id).toBe(p.id)
        }))

      it.effect("the other environment's business is 403, an unknown id 404", () =>
        Effect.gen(function*() {
          const { base, key, live } = yield* TestHost.client
          expect((yield* get(base, key, `/businesses/${production[0]!.id}`)).status).toBe(403)
          expect((yield* get(base, live, `/businesses/${sandbox[0]!.id}/status`)).status).toBe(403)
          const missing = yield* get(base, key, "/businesses/00000000-0000-7000-8000-000000000000")
          expect(missing).toStrictEqual({ status: 404, body: { detail: "Business not found." } })
          expect((yield* get(base, key, "/businesses/..%2F..%2Fetc")).status).toBe(404)
        }))
    })
  })
}

describe("Business.statusOf", () => {
  const base = Synthetic.registry(3, 1)[0]!
  const reg = registration()
  it.effect("ACTIVE when any registration is active; BAD standing wins among active ones", () =>
    Effect.sync(() => {
      const b = { ...base, url: "", console_url: "" } as unknown as Business.Business
      const none = Business.statusOf({ ...b, registrations: [] })
      expect(none).toMatchObject({ status: "UNKNOWN", standing: "UNKNOWN", updated_at: null })
      const mixed = Business.statusOf({
        ...b,
        registrations: [
          { ...reg, status: "ACTIVE", standing: "GOOD", issue_date: "2001-02-03" as never },
          { ...reg, status: "active", standing: "BAD", issue_date: "2010-05-06" as never },
          { ...reg, status: "INACTIVE", standing: "GOOD", dissolution_date: "2020-01-01" as never }
        ]
      })
      expect(mixed).toMatchObject({ status: "ACTIVE", standing: "BAD", updated_at: "2020-01-01T00:00:00.000000" })
      const inactive = Business.statusOf({ ...b, registrations: [{ ...reg, status: "DISSOLVED", standing: null }] })
      expect(inactive).toMatchObject({ status: "INACTIVE", standing: "UNKNOWN" })
    }))
})
