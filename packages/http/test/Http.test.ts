import { describe, expect, it, layer } from "@effect/vitest"
import { Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect } from "effect"
import { Host } from "../src/index.js"

const registry = Synthetic.registry(77, 300)
const target = registry[12]!
const request = {
  name: target.name,
  address: `${target.addresses[0]!.street}, ${target.addresses[0]!.city}, ${target.addresses[0]!.state} ${
    target.addresses[0]!.zip
  }`
}

for (const backend of Backends.all()) {
  const Server = TestHost.layer(backend, { sandboxRegistry: registry })

  describe(`HTTP API on ${backend.name}`, () => {
    layer(Server, { timeout: "60 seconds" })((it) => {
      const setup = TestHost.client
      const post = (base: string, key: string | undefined, body: string, headers: Record<string, string> = {}) =>
        Effect.promise(() =>
          fetch(`${base}/searches`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              ...(key === undefined ? {} : { "x-api-key": key }),
              ...headers
            },
            body
          })
        )

      it.effect("401 without a key, with the contract's body, before the body is looked at", () =>
        Effect.gen(function*() {
          const { base } = yield* setup
          const r = yield* post(base, undefined, "not json")
          expect(r.status).toBe(401)
          expect(yield* Effect.promise(() => r.json())).toStrictEqual({
            detail: "Missing API key: send it in the X-API-Key header."
          })
          const bad = yield* post(base, "osk_test_nope", "{}")
          expect(bad.status).toBe(401)
        }))

      it.effect("422 byte-for-byte from the core validator; 415 for a body that is not JSON", () =>
        Effect.gen(function*() {
          const { base, key: sandbox } = yield* setup
          const r = yield* post(base, sandbox, "{\"name\": 5}")
          expect(r.status).toBe(422)
          expect(yield* Effect.promise(() => r.text())).toBe(
            "{\"detail\":[{\"type\":\"string_type\",\"loc\":[\"body\",\"name\"],\"msg\":\"Input should be a valid string\",\"input\":5},{\"type\":\"missing\",\"loc\":[\"body\",\"address\"],\"msg\":\"Field required\",\"input\":{\"name\":5}}]}"
          )
          const t = yield* post(base, sandbox, "name=x", { "content-type": "text/plain" })
          expect(t.status).toBe(415)
        }))

      it.effect("201 with a finished, verified search; GET and status read it back; the other environment is 403", () =>
        Effect.gen(function*() {
          const { base, key: sandbox, live } = yield* setup
          const r = yield* post(base, sandbox, JSON.stringify(request))
          expect(r.status).toBe(201)
          const s = (yield* Effect.promise(() => r.json())) as any
          expect(s).toMatchObject({
            state: "COMPLETED",
            verified: true,
            business_name_match: "EXACT",
            business: { id: target.id }
          })
          expect(r.headers.get("location")).toBe(`http://osiris.test/searches/${s.id}`)
          expect(r.headers.get("x-resource-id")).toBe(s.id)
          expect(r.headers.get("vary")).toBe("Prefer, Accept")
          const g = yield* Effect.promise(() =>
            fetch(`${base}/searches/${s.id}`, { headers: { "x-api-key": sandbox } })
          )
          expect(g.status).toBe(200)
          expect(yield* Effect.promise(() => g.json())).toStrictEqual(s)
          const st = yield* Effect.promise(() =>
            fetch(`${base}/searches/${s.id}/status`, { headers: { "x-api-key": sandbox } })
          )
          expect(yield* Effect.promise(() => st.json())).toStrictEqual({
            id: s.id,
            state: "COMPLETED",
            updated_at: s.updated_at
          })
          const other = yield* Effect.promise(() =>
            fetch(`${base}/searches/${s.id}`, { headers: { "x-api-key": live } })
          )
          expect(other.status).toBe(403)
          const missing = yield* Effect.promise(() =>
            fetch(`${base}/searches/0192f3a4-5b6c-7d8e-9f01-0000000000ff`, { headers: { "x-api-key": sandbox } })
          )
          expect(missing.status).toBe(404)
          for (const odd of ["not-a-uuid", "..%2F..%2Fetc%2Fpasswd", "%00", "x".repeat(500)]) {
            const r2 = yield* Effect.promise(() =>
              fetch(`${base}/searches/${odd}`, { headers: { "x-api-key": sandbox } })
            )
            expect(r2.status).toBe(404)
          }
          expect(yield* Effect.promise(() => missing.json())).toStrictEqual({ detail: "Search not found." })
        }))

      it.effect("an Idempotency-Key replays the first search; a different body with it is 422", () =>
        Effect.gen(function*() {
          const { base, key: sandbox } = yield* setup
          const first = yield* post(base, sandbox, JSON.stringify(request), { "idempotency-key": "abc-1" })
          const a = (yield* Effect.promise(() => first.json())) as any
          const again = yield* post(base, sandbox, JSON.stringify({ address: request.address, name: request.name }), {
            "idempotency-key": "abc-1"
          })
          expect(again.status).toBe(201)
          expect(again.headers.get("idempotent-replayed")).toBe("true")
          expect(yield* Effect.promise(() => again.json())).toStrictEqual(a)
          expect(a.idempotency_key).toBe("abc-1")
          const reused = yield* post(base, sandbox, JSON.stringify({ ...request, name: "Other" }), {
            "idempotency-key": "abc-1"
          })
          expect(reused.status).toBe(422)
          expect(((yield* Effect.promise(() => reused.json())) as any).detail[0].type).toBe("idempotency_key_reused")
        }))
    })
  })
}

for (const backend of Backends.all()) {
  const Server = TestHost.layer(backend, { sandboxRegistry: registry })
  describe(`HTTP API listing, cancelling, health and limits on ${backend.name}`, () => {
    layer(Server, { timeout: "60 seconds" })((it) => {
      const setup = TestHost.client
      const call = (url: string, init: RequestInit = {}) => Effect.promise(() => fetch(url, init))

      it.effect("lists searches newest first with a cursor and filters; bad query is 422", () =>
        Effect.gen(function*() {
          const { base, key } = yield* setup
          const created: Array<string> = []
          for (let i = 0; i < 5; i++) {
            const r = yield* call(`${base}/searches`, {
              method: "POST",
              headers: { "content-type": "application/json", "x-api-key": key },
              body: JSON.stringify({ ...request, reference_id: i % 2 === 0 ? "even" : "odd" })
            })
            created.push(((yield* Effect.promise(() => r.json())) as any).id)
          }
          const page1 = (yield* Effect.promise(async () =>
            (await fetch(`${base}/searches?limit=2`, { headers: { "x-api-key": key } })).json()
          )) as any
          expect(page1.data.map((s: any) =>
            s.id
          )).toStrictEqual([created[4], created[3]])
          const page2 = (yield* Effect.promise(async () =>
            (await fetch(`${base}/searches?limit=2&cursor=${page1.next_cursor}`, { headers: { "x-api-key": key } }))
              .json()
          )) as any
          expect(page2.data.map((s: any) => s.id)).toStrictEqual([created[2], created[1]])
          const even = (yield* Effect.promise(async () =>
            (await fetch(`${base}/searches?reference_id=even&state=COMPLETED`, { headers: { "x-api-key": key } }))
              .json()
          )) as any
          expect(even.data).toHaveLength(3)
          expect(even.next_cursor).toBeNull()
          const bad = yield* call(`${base}/searches?limit=0&state=DONE`, { headers: { "x-api-key": key } })
          expect(bad.status).toBe(422)
          expect(((yield* Effect.promise(() =>
            bad.json()
          )) as any).detail.map((d: any) => d.type)).toStrictEqual([
            "greater_than_equal",
            "enum"
          ])
          expect((yield* call(`${base}/searches?cursor=nonsense`, { headers: { "x-api-key": key } })).status).toBe(422)
        }))

      it.effect("cancels only what is still running: a finished search is 409 naming both states", () =>
        Effect.gen(function*() {
          const { base, key } = yield* setup
          const r = yield* call(`${base}/searches`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": key },
            body: JSON.stringify(request)
          })
          const s = (yield* Effect.promise(() => r.json())) as any
          const c = yield* call(`${base}/searches/${s.id}/cancel`, { method: "POST", headers: { "x-api-key": key } })
          expect(c.status).toBe(409)
          expect(yield* Effect.promise(() => c.json())).toStrictEqual({
            detail: "A search cannot go from COMPLETED to CANCELLED"
          })
          const missing = yield* call(`${base}/searches/0192f3a4-5b6c-7d8e-9f01-0000000000ff/cancel`, {
            method: "POST",
            headers: { "x-api-key": key }
          })
          expect(missing.status).toBe(404)
        }))

      it.effect("serves its OpenAPI 3.1 document and an offline reference page", () =>
        Effect.gen(function*() {
          const { base } = yield* setup
          const doc = (yield* Effect.promise(async () => (await fetch(`${base}/openapi.json`)).json())) as any
          expect(doc.openapi).toBe("3.1.0")
          expect(Object.keys(doc.paths)).toEqual(
            expect.arrayContaining([
              "/searches",
              "/searches/{id}",
              "/searches/{id}/status",
              "/searches/{id}/cancel",
              "/health/live"
            ])
          )
          expect(Object.keys(doc.paths["/searches"].post.responses)).toEqual(
            expect.arrayContaining(["201", "202", "401", "422"])
          )
          expect(JSON.stringify(doc.components.securitySchemes)).toContain("X-API-Key")
          const page = yield* Effect.promise(() => fetch(`${base}/docs`))
          expect(page.status).toBe(200)
          const html = yield* Effect.promise(() => page.text())
          expect(html).toContain("<script")
          expect(html).not.toMatch(/<script[^>]+src="https?:/)
        }))

      it.effect("manages API keys: create shows the key once, list, revoke; scope and application rules", () =>
        Effect.gen(function*() {
          const { base, key } = yield* setup
          const h = { "x-api-key": key, "content-type": "application/json" }
          const c = yield* call(`${base}/api_keys`, {
            method: "POST",
            headers: h,
            body: JSON.stringify({ name: "reader", scopes: ["searches:read"] })
          })
          expect(c.status).toBe(201)
          const created = (yield* Effect.promise(() => c.json())) as any
          expect(created).toMatchObject({
            name: "reader",
            environment: "SANDBOX",
            scopes: ["searches:read"],
            revoked_at: null
          })
          expect(created.key).toMatch(/^osk_test_/)
          const list = (yield* Effect.promise(async () =>
            (await fetch(`${base}/api_keys`, { headers: h })).json()
          )) as any
          expect(list.data.map((k: any) => k.name)).toContain("reader")
          expect(JSON.stringify(list)).not.toContain(created.key)
          // The new key lacks keys:manage and searches:write.
          const r = { "x-api-key": created.key, "content-type": "application/json" }
          expect((yield* call(`${base}/api_keys`, { headers: r })).status).toBe(403)
          expect(
            (yield* call(`${base}/searches`, { method: "POST", headers: r, body: JSON.stringify(request) })).status
          ).toBe(403)
          const bad = yield* call(`${base}/api_keys`, {
            method: "POST",
            headers: h,
            body: JSON.stringify({ name: "", scopes: ["nope"] })
          })
          expect(bad.status).toBe(422)
          const revoked = yield* call(`${base}/api_keys/${created.id}`, { method: "DELETE", headers: h })
          expect(revoked.status).toBe(200)
          expect(((yield* Effect.promise(() => revoked.json())) as any).revoked_at).not.toBeNull()
          expect((yield* call(`${base}/searches?limit=1`, { headers: r })).status).toBe(401)
          expect(
            (yield* call(`${base}/api_keys/0192f3a4-5b6c-7d8e-9f01-0000000000ff`, { method: "DELETE", headers: h }))
              .status
          ).toBe(404)
        }))

      it.effect("health answers without a key; bodies over 1 MiB are 413", () =>
        Effect.gen(function*() {
          const { base, key } = yield* setup
          expect(yield* Effect.promise(async () => (await fetch(`${base}/health/live`)).json())).toStrictEqual({
            status: "ok"
          })
          expect(yield* Effect.promise(async () => (await fetch(`${base}/health/ready`)).json())).toStrictEqual({
            status: "ok"
          })
          const big = JSON.stringify({ ...request, reference_id: "x".repeat(1024 * 1024) })
          const r = yield* call(`${base}/searches`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": key },
            body: big
          })
          expect(r.status).toBe(413)
          expect(yield* Effect.promise(() => r.json())).toStrictEqual({
            detail: "The request body is larger than 1 MiB."
          })
        }))
    })
  })
}

// `it` from @effect/vitest is used through `layer`; this keeps a plain test beside them.
describe("HTTP API module", () => {
  it("exports the host layers", () => {
    expect(typeof Host.layerApi).toBe("function")
  })
})
