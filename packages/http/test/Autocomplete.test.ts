import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect, Either } from "effect"
import { BusinessTokens } from "../src/index.js"

const registry = Synthetic.registry(31, 80)
const target = registry[9]!

describe("business tokens", () => {
  const tokens = BusinessTokens.make(new Uint8Array(32).fill(7))
  const input = {
    businessId: "0192f3a4-5b6c-7d8e-9f01-00000000b001",
    applicationId: "0192f3a4-5b6c-7d8e-9f01-00000000a001",
    environment: "SANDBOX" as const,
    nowMillis: Date.UTC(2026, 10, 22, 12)
  }
  it("names the business for its application and environment for 15 minutes", () => {
    const t = tokens.issue(input)
    expect(t).toMatch(/^bt_[A-Za-z0-9_-]{72}$/)
    expect(tokens.check(t, input)).toEqual(Either.right({ businessId: input.businessId }))
    const later = { ...input, nowMillis: input.nowMillis + 15 * 60_000 - 1 }
    expect(Either.isRight(tokens.check(t, later))).toBe(true)
    expect(tokens.check(t, { ...input, nowMillis: input.nowMillis + 15 * 60_000 })).toEqual(
      Either.left("business_token_expired")
    )
  })
  it("refuses another application's, the other environment's, an altered or a foreign-secret token as invalid", () => {
    const t = tokens.issue(input)
    const invalid = Either.left("business_token_invalid")
    expect(tokens.check(t, { ...input, applicationId: "0192f3a4-5b6c-7d8e-9f01-00000000a002" })).toEqual(invalid)
    expect(tokens.check(t, { ...input, environment: "PRODUCTION" })).toEqual(invalid)
    const altered = t.slice(0, 10) + (t[10] === "A" ? "B" : "A") + t.slice(11)
    expect(tokens.check(altered, input)).toEqual(invalid)
    expect(BusinessTokens.make(new Uint8Array(32).fill(8)).check(t, input)).toEqual(invalid)
    for (const junk of ["", "bt_", "bt_!!", "nope", `${t}A`]) expect(tokens.check(junk, input)).toEqual(invalid)
  })
})

for (const backend of Backends.all()) {
  describe(`autocomplete on ${backend.name}`, () => {
    layer(TestHost.layer(backend, { sandboxRegistry: registry }), { timeout: "60 seconds" })((it) => {
      it.effect("suggests the business for its name; its token runs a search on that business", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          const r = yield* TestHost.call(
            base,
            key,
            "GET",
            `/autocomplete/businesses?q=${encodeURIComponent(target.name)}`
          )
          expect(r.status).toBe(200)
          const first = r.body.suggestions[0]
          const a = target.primary_address ?? target.addresses[0]!
          expect(first).toMatchObject({ name: target.name, city: a.city, state: a.state, match: "EXACT" })
          expect(first.label).toBe(`${target.name} — ${a.city}, ${a.state}`)
          expect(Object.keys(first)).toEqual(["business_token", "label", "name", "city", "state", "structure", "match"])
          const s = yield* TestHost.call(base, key, "POST", "/searches", { business_token: first.business_token })
          expect(s.status).toBe(201)
          expect(s.body).toMatchObject({ state: "COMPLETED", name: target.name })
          expect(s.body.business.id).toBe(target.id)
          // Filtered by state: another state's businesses are left out.
          const other = registry.find((b) => (b.primary_address ?? b.addresses[0])!.state !== a.state)!
          const st = (other.primary_address ?? other.addresses[0])!.state
          const filtered = yield* TestHost.call(
            base,
            key,
            "GET",
            `/autocomplete/businesses?q=${encodeURIComponent(target.name)}&state=${st}&limit=20`
          )
          expect(filtered.body.suggestions.every((x: any) => x.state === st)).toBe(true)
        }))

      it.effect("a foreign, altered or expired token is 422 business_token_invalid / _expired", () =>
        Effect.gen(function*() {
          const mine = yield* TestHost.client
          const theirs = yield* TestHost.client
          const r = yield* TestHost.call(
            mine.base,
            mine.key,
            "GET",
            `/autocomplete/businesses?q=${encodeURIComponent(target.name)}`
          )
          const token = r.body.suggestions[0].business_token
          const foreign = yield* TestHost.call(mine.base, theirs.key, "POST", "/searches", { business_token: token })
          expect(foreign.status).toBe(422)
          expect(foreign.body.detail).toEqual([{
            type: "business_token_invalid",
            loc: ["body", "business_token"],
            msg: "Unknown business token",
            input: token
          }])
          const live = yield* TestHost.call(mine.base, mine.live, "POST", "/searches", { business_token: token })
          expect(live.body.detail[0].type).toBe("business_token_invalid")
          // A genuine token issued 16 minutes ago (signed with the host secret in the database).
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ value: Uint8Array }>`select value from host_secrets where name = 'business_token'`
          const old = BusinessTokens.make(Buffer.from(rows[0]!.value)).issue({
            businessId: target.id,
            applicationId: mine.app.id,
            environment: "SANDBOX",
            nowMillis: Date.now() - 16 * 60_000
          })
          const expired = yield* TestHost.call(mine.base, mine.key, "POST", "/searches", { business_token: old })
          expect(expired.body.detail[0]).toMatchObject({
            type: "business_token_expired",
            msg: "The business token has expired"
          })
        }))

      it.effect("bad queries are 422 in the documented shape", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          const missing = yield* TestHost.call(base, key, "GET", "/autocomplete/businesses")
          expect(missing).toStrictEqual({
            status: 422,
            body: { detail: [{ type: "missing", loc: ["query", "q"], msg: "Field required", input: null }] }
          })
          const bad = yield* TestHost.call(base, key, "GET", "/autocomplete/businesses?q=%20&state=XYZ&limit=0")
          expect(bad.body.detail.map((d: any) => d.loc[1])).toEqual(["q", "state", "limit"])
          // A repeated parameter: the last value wins; an unknown path has the documented 404 body.
          expect((yield* TestHost.call(base, key, "GET", "/autocomplete/businesses?q=&q=Acme&limit=x&limit=2")).status)
            .toBe(200)
          expect(yield* TestHost.call(base, key, "GET", "/no/such/path")).toStrictEqual({
            status: 404,
            body: { detail: "Not found." }
          })
        }))
    })
  })
}
