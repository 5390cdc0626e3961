/**
 * Security, end to end on a served host per backend: tenancy (another application's resource is 404,
 * the other environment's 403, a revoked key 401) on every resource with an id; no plaintext key
 * anywhere in the database (every column of every table scanned); an endless body gets its 413
 * after 1 MiB while the client is still sending. (The webhook guard's address, DNS and URL rules are
 * in packages/webhooks/test/Guard.test.ts and, through the API, packages/testkit/test/Webhooks.test.ts;
 * the constant-time key comparison in ApiKeys.test.ts.)
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Backends, Fixtures, TestHost } from "@osiris/testkit"
import { Effect } from "effect"
import { request } from "node:http"
import { connect } from "node:net"

const cyphorus = Fixtures.byName("Cyphorus Reg Company")!
const body = { name: cyphorus.name, address: cyphorus.address, options: ["Order.NaicsPrediction"] }

for (const backend of Backends.all()) {
  describe(`security on ${backend.name}`, () => {
    layer(TestHost.layer(backend), { timeout: "120 seconds" })((it) => {
      it.effect("another application's resources are 404, the other environment's 403, a revoked key's 401", () =>
        Effect.gen(function*() {
          const a = yield* TestHost.client
          const b = yield* TestHost.client
          const { base } = a
          const search = yield* TestHost.call(base, a.key, "POST", "/searches", body)
          expect(search.status).toBe(201)
          const orderable = search.body.orderables[0]
          const hook = yield* TestHost.call(base, a.key, "POST", "/webhooks", {
            url: "https://hooks.example.com/osiris"
          })
          expect(hook.status).toBe(201)
          const spare = yield* TestHost.call(base, a.key, "POST", "/api_keys", { name: "spare" })
          expect(spare.status).toBe(201)
          const revoked = yield* TestHost.call(base, a.key, "POST", "/api_keys", { name: "to revoke" })
          expect((yield* TestHost.call(base, a.key, "DELETE", `/api_keys/${revoked.body.id}`)).status).toBe(200)

          const resources: ReadonlyArray<readonly [string, string]> = [
            ["GET", `/searches/${search.body.id}`],
            ["GET", `/searches/${search.body.id}/status`],
            ["POST", `/searches/${search.body.id}/cancel`],
            ["GET", new URL(orderable.url).pathname],
            ["GET", `/webhooks/${hook.body.id}/deliveries`],
            ["POST", `/webhooks/${hook.body.id}/rotate_secret`],
            ["DELETE", `/webhooks/${hook.body.id}`],
            ["DELETE", `/api_keys/${spare.body.id}`]
          ]
          for (const [method, path] of resources) {
            const other = yield* TestHost.call(base, b.key, method, path)
            expect(other.status, `${method} ${path} from another application`).toBe(404)
            expect(Object.keys(other.body)).toStrictEqual(["detail"])
            const live = yield* TestHost.call(base, a.live, method, path)
            expect(live.status, `${method} ${path} from the other environment`).toBe(403)
            expect(Object.keys(live.body)).toStrictEqual(["detail"])
            const gone = yield* TestHost.call(base, revoked.body.key, method, path)
            expect(gone.status, `${method} ${path} with a revoked key`).toBe(401)
            expect(gone.body).toStrictEqual({ detail: "This API key has been revoked." })
          }
          // The owner still reaches every one of them (the refusals above changed nothing).
          expect((yield* TestHost.call(base, a.key, "GET", `/searches/${search.body.id}`)).status).toBe(200)
          expect((yield* TestHost.call(base, a.key, "DELETE", `/webhooks/${hook.body.id}`)).status).toBe(204)
        }))

      it.effect("no key is stored in plaintext: every column of every table, scanned", () =>
        Effect.gen(function*() {
          const a = yield* TestHost.client
          const made = yield* TestHost.call(a.base, a.key, "POST", "/api_keys", { name: "scanned" })
          expect(made.status).toBe(201)
          const keys = [a.key, a.live, made.body.key as string]
          // Use them, so every table that records a caller has seen them.
          for (const key of keys) {
            expect((yield* TestHost.call(a.base, key, "POST", "/searches", body)).status).toBe(201)
          }
          const sql = yield* SqlClient.SqlClient
          const tables = yield* sql<{ schema: string; name: string }>`
            select table_schema as schema, table_name as name from information_schema.tables
            where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`
          expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["api_keys", "searches", "webhook_events"]))
          let rows = 0
          for (const t of tables) {
            const dump = yield* sql<{ row: string }>`select row_to_json(t)::text as row from ${sql(t.schema)}.${
              sql(t.name)
            } t`
            rows += dump.length
            for (const { row } of dump) {
              for (const key of keys) {
                // Neither the key nor its secret part (what follows `osk_test_` / `osk_live_`).
                expect(row.includes(key.slice(9)), `${t.schema}.${t.name} holds a key`).toBe(false)
              }
            }
          }
          expect(rows).toBeGreaterThan(10)
        }))

      it.effect("what the fuzzer found: odd paths, deep bodies and broken HTTP get documented errors", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          for (
            const path of ["/searches/%ZZ", "/businesses/%E0%A4%A", `/businesses/${"x".repeat(5000)}`, "/nope/%ZZ"]
          ) {
            const r = yield* TestHost.call(base, key, "GET", path)
            expect(r, path).toStrictEqual({ status: 404, body: { detail: "Not found." } })
          }
          const deep = `${"{\"a\":".repeat(5000)}1${"}".repeat(5000)}`
          for (const path of ["/api_keys", "/webhooks", "/searches"]) {
            const r = yield* Effect.promise(async () => {
              const res = await fetch(`${base}${path}`, {
                method: "POST",
                headers: { "x-api-key": key, "content-type": "application/json" },
                body: deep
              })
              return { status: res.status, body: await res.json() }
            })
            expect(r, path).toStrictEqual({ status: 400, body: { detail: "There was an error parsing the body" } })
          }
          // Node's parser refuses these before the API sees them; the answer still has the documented shape.
          const port = Number(new URL(base).port)
          for (
            const raw of [
              "GET /searches HTTP/1.1\r\nhost: x\r\nx-api-key: a\x01b\r\nconnection: close\r\n\r\n",
              "NOT HTTP AT ALL\r\n\r\n",
              `GET /searches HTTP/1.1\r\nhost: x\r\nidempotency-key: ${"k".repeat(20_000)}\r\nconnection: close\r\n\r\n`
            ]
          ) {
            const answer = yield* Effect.promise(() =>
              new Promise<string>((resolve) => {
                const chunks: Array<Buffer> = []
                const socket = connect(port, "127.0.0.1", () => socket.write(raw))
                socket.on("data", (d) => chunks.push(d))
                socket.on("error", () => {})
                socket.on("close", () => resolve(Buffer.concat(chunks).toString()))
              })
            )
            expect(answer).toMatch(/^HTTP\/1\.1 (400|431) /)
            expect(answer).toMatch(/content-type: application\/json/i)
            expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).detail).toEqual(expect.any(String))
          }
        }))

      it.effect("an endless body gets 413 after 1 MiB, while the client is still sending", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          const result = yield* Effect.promise(() =>
            new Promise<{ status: number | undefined; detail: unknown; sent: number }>((resolve, reject) => {
              const u = new URL(`${base}/searches`)
              let sent = 0
              let answered = false
              const req = request({
                host: u.hostname,
                port: u.port,
                path: u.pathname,
                method: "POST",
                headers: { "x-api-key": key, "content-type": "application/json", "transfer-encoding": "chunked" }
              }, (res) => {
                answered = true
                let text = ""
                res.on("data", (d: Buffer) => (text += d.toString()))
                res.on("end", () => resolve({ status: res.statusCode, detail: JSON.parse(text).detail, sent }))
              })
              req.on("error", (e: NodeJS.ErrnoException) => {
                if (e.code !== "EPIPE" && e.code !== "ECONNRESET") reject(e)
              })
              const chunk = "x".repeat(64 * 1024)
              req.write(`{"name":"`)
              // Up to 64 MiB, unless the server answers first (it must: it stops reading at 1 MiB).
              const pump = () => {
                while (!answered && sent < 64 * 1024 * 1024) {
                  sent += chunk.length
                  if (!req.write(chunk)) return req.once("drain", pump)
                }
                if (!answered) req.end(`"}`)
              }
              pump()
            })
          )
          expect(result.status).toBe(413)
          expect(result.detail).toBe("The request body is larger than 1 MiB.")
          expect(result.sent).toBeLessThan(16 * 1024 * 1024)
        }))
    })
  })
}
