/**
 * DECISIONS sections 1 to 3 and 5, rule by rule, over plain HTTP against a served host (the
 * other rules have their own suites: Http, Execution, Idempotency, Processes, Businesses,
 * Orderables, Autocomplete, RateLimit, Errors, Webhooks).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect } from "effect"

const registry = Synthetic.registry(81, 40)
const target = registry[6]!
const a = target.addresses[0]!
const body = { name: target.name, address: `${a.street}, ${a.city}, ${a.state} ${a.zip}` }

const post = (base: string, key: string, payload: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const r = await fetch(`${base}/searches`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", ...headers },
      body: payload
    })
    return { status: r.status, headers: r.headers, text: await r.text() }
  })
const json = (text: string) => JSON.parse(text) as any

for (const backend of Backends.all()) {
  describe(`DECISIONS rules on ${backend.name}`, () => {
    layer(TestHost.layer(backend, { sandboxRegistry: registry }), { timeout: "60 seconds" })((it) => {
      it.effect("section 1: modes, clamps, and the headers every create carries", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          const payload = JSON.stringify(body)
          const sync = yield* post(base, key, payload)
          expect(sync.status).toBe(201)
          const s = json(sync.text)
          for (const r of [sync]) {
            expect(r.headers.get("location")).toBe(s.url)
            expect(r.headers.get("x-resource-id")).toBe(s.id)
            expect(r.headers.get("vary")).toBe("Prefer, Accept")
          }
          // No preference: the key's default mode (sync) and no Preference-Applied.
          expect(sync.headers.get("preference-applied")).toBeNull()
          const async = yield* post(base, key, payload, { prefer: "respond-async" })
          expect(async.status).toBe(202)
          expect(json(async.text).state).toBe("PENDING")
          expect(async.headers.get("preference-applied")).toBe("respond-async")
          expect(async.headers.get("retry-after")).toBe("1")
          expect(async.headers.get("location")).toBe(json(async.text).url)
          // wait=N clamped to 1..90 and echoed.
          expect((yield* post(base, key, payload, { prefer: "wait=0" })).headers.get("preference-applied")).toBe(
            "wait=1"
          )
          expect((yield* post(base, key, payload, { prefer: "wait=500" })).headers.get("preference-applied")).toBe(
            "wait=90"
          )
          // Unknown tokens are ignored, never an error.
          expect((yield* post(base, key, payload, { prefer: "handling=lenient, foo=bar" })).status).toBe(201)
          // A key whose default is async: no preference (or the legacy Accept flag) runs async; Prefer wins.
          const made = yield* Effect.promise(async () =>
            (await fetch(`${base}/api_keys`, {
              method: "POST",
              headers: { "x-api-key": key, "content-type": "application/json" },
              body: JSON.stringify({ name: "async", default_request_mode: "async" })
            })).json() as Promise<any>
          )
          expect(made.default_request_mode).toBe("async")
          expect((yield* post(base, made.key, payload)).status).toBe(202)
          expect((yield* post(base, made.key, payload, { accept: "application/vnd.osiris.sync+json" })).status).toBe(
            202
          )
          const preferWins = yield* post(base, made.key, payload, {
            accept: "application/vnd.osiris.sync+json",
            prefer: "wait=10"
          })
          expect(preferWins.status).toBe(201)
          expect(preferWins.headers.get("preference-applied")).toBe("wait=10")
        }))

      it.effect("section 2: the key's bounds, the fingerprint, replays, reuse, and the echo", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          const tooLong = yield* post(base, key, JSON.stringify(body), { "idempotency-key": "k".repeat(256) })
          expect(tooLong.status).toBe(422)
          expect(json(tooLong.text).detail[0].loc).toEqual(["header", "idempotency-key"])
          const first = yield* post(base, key, JSON.stringify(body), { "idempotency-key": "order-7" })
          expect(first.status).toBe(201)
          expect(json(first.text).idempotency_key).toBe("order-7")
          // Key order and whitespace do not change the fingerprint.
          const reordered = `{ "address" : ${JSON.stringify(body.address)},\n "name": ${JSON.stringify(body.name)} }`
          const replay = yield* post(base, key, reordered, { "idempotency-key": "order-7" })
          expect(replay.status).toBe(201)
          expect(replay.headers.get("idempotent-replayed")).toBe("true")
          expect(replay.text).toBe(first.text)
          // An asynchronous replay of a finished search: the status it has now (201), no new search.
          const asyncReplay = yield* post(base, key, JSON.stringify(body), {
            "idempotency-key": "order-7",
            prefer: "respond-async"
          })
          expect(asyncReplay.status).toBe(201)
          expect(json(asyncReplay.text).id).toBe(json(first.text).id)
          const reused = yield* post(base, key, JSON.stringify({ ...body, name: "Other" }), {
            "idempotency-key": "order-7"
          })
          expect(reused.status).toBe(422)
          expect(json(reused.text).detail[0]).toMatchObject({
            type: "idempotency_key_reused",
            loc: ["header", "idempotency-key"]
          })
          // Scope: another application may use the same key for its own search.
          const other = yield* TestHost.client
          const theirs = yield* post(other.base, other.key, JSON.stringify(body), { "idempotency-key": "order-7" })
          expect(json(theirs.text).id).not.toBe(json(first.text).id)
        }))

      it.effect("section 3: 401 for missing, malformed, unknown and revoked keys; 403 for a missing scope", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          const detail = (r: { text: string }) => json(r.text).detail
          expect(detail(yield* post(base, "", "{}"))).toBe("Missing API key: send it in the X-API-Key header.")
          expect(detail(yield* post(base, "osk_test_short", "{}"))).toBe("Malformed API key.")
          expect(detail(yield* post(base, `osk_test_${"A".repeat(43)}`, "{}"))).toBe("Invalid API key.")
          const readOnly = yield* TestHost.call(base, key, "POST", "/api_keys", {
            name: "reader",
            scopes: ["searches:read"]
          })
          const refused = yield* post(base, readOnly.body.key, JSON.stringify(body))
          expect(refused.status).toBe(403)
          expect(detail(refused)).toBe("This key lacks the searches:write scope.")
          expect((yield* TestHost.call(base, readOnly.body.key, "GET", "/searches")).status).toBe(200)
          expect((yield* TestHost.call(base, readOnly.body.key, "GET", "/api_keys")).status).toBe(403)
          // Reading needs searches:read, cancelling searches:write.
          const writeOnly = yield* TestHost.call(base, key, "POST", "/api_keys", {
            name: "writer",
            scopes: ["searches:write"]
          })
          const created = yield* post(base, writeOnly.body.key, JSON.stringify(body))
          expect(created.status).toBe(201)
          const id = json(created.text).id
          expect((yield* TestHost.call(base, writeOnly.body.key, "GET", `/searches/${id}`)).body).toEqual({
            detail: "This key lacks the searches:read scope."
          })
          expect((yield* TestHost.call(base, writeOnly.body.key, "GET", "/searches")).status).toBe(403)
          expect((yield* TestHost.call(base, readOnly.body.key, "POST", `/searches/${id}/cancel`)).status).toBe(403)
          yield* TestHost.call(base, key, "DELETE", `/api_keys/${readOnly.body.id}`)
          const revoked = yield* post(base, readOnly.body.key, JSON.stringify(body))
          expect(revoked.status).toBe(401)
          expect(detail(revoked)).toBe("This API key has been revoked.")
        }))

      it.effect("section 5: 413 over 1 MiB by Content-Length; 415; bodies in the documented shape", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          // Without a declared length (chunked, endless): Security.test.ts.
          const big = yield* post(base, key, `{"name":"${"x".repeat(1024 * 1024)}"}`)
          expect(big.status).toBe(413)
          expect(json(big.text)).toEqual({ detail: "The request body is larger than 1 MiB." })
          const xml = yield* post(base, key, "<a/>", { "content-type": "application/xml" })
          expect(xml.status).toBe(415)
          expect(json(xml.text)).toEqual({ detail: "Send the body as application/json." })
        }))
    })
  })
}
