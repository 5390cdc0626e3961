import { PgClient } from "@effect/sql-pg"
import { describe, expect, it, layer } from "@effect/vitest"
import { Formats, Ids } from "@osiris/core"
import { Backends } from "@osiris/testkit"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import { ApiKeys, Host, Idempotency, Searches } from "../src/index.js"
import { pendingFor } from "./SearchFixtures.js"

const at = Formats.timestampFromMillis(Date.UTC(2026, 10, 21, 12))
const body = { name: "Acme Widgets Inc", address: "123 N Main St, Springfield, IL 62701" }

/** One POST /searches with an Idempotency-Key, as the host will run it. */
const createWithKey = (applicationId: string, key: string, requestBody: typeof body) =>
  Effect.gen(function*() {
    const ids = yield* Ids.Ids
    const repo = yield* Idempotency.IdempotencyRepo
    const searches = yield* Searches.SearchesRepo
    const id = yield* ids.next
    const search = pendingFor(requestBody, id, key)
    return yield* repo.claim({
      applicationId,
      environment: "SANDBOX",
      resource: "search",
      key,
      fingerprint: Idempotency.fingerprint("POST", "/searches", [], requestBody),
      resourceId: id,
      at,
      create: searches.create({ applicationId, environment: "SANDBOX", request: requestBody, body: search })
    })
  })

describe("fingerprints", () => {
  it("ignore key order and whitespace, not values, path or query", () => {
    const f = Idempotency.fingerprint
    expect(f("POST", "/searches", [], { a: 1, b: { c: [1, 2] } })).toBe(
      f("post", "/searches", [], JSON.parse("{ \"b\": {\"c\":[1,2]},  \"a\":1 }"))
    )
    expect(f("POST", "/searches", [], { a: 1 })).not.toBe(f("POST", "/searches", [], { a: 2 }))
    expect(f("POST", "/searches", [], { a: 1 })).not.toBe(f("POST", "/other", [], { a: 1 }))
    expect(f("POST", "/s", [["x", "1"], ["y", "2"]], {})).toBe(f("POST", "/s", [["y", "2"], ["x", "1"]], {}))
    expect(f("POST", "/s", [["x", "1"]], {})).not.toBe(f("POST", "/s", [["x", "2"]], {}))
  })
})

for (const backend of Backends.all()) {
  const Live = Host.layerRepos.pipe(Layer.provideMerge(backend.fresh()))

  describe(`idempotency on ${backend.name}`, () => {
    layer(Live, { timeout: "60 seconds" })((it) => {
      it.effect("50 concurrent requests with one key create exactly one search", () =>
        Effect.gen(function*() {
          const app = yield* (yield* ApiKeys.ApiKeysRepo).ensureApplication("idem")
          const claims = yield* Effect.all(
            Array.from({ length: 50 }, () => createWithKey(app.id, "key-1", body)),
            { concurrency: "unbounded" }
          )
          const created = claims.filter((c) => c._tag === "Created")
          expect(created).toHaveLength(1)
          expect(new Set(claims.map((c) => c.resourceId))).toStrictEqual(new Set([created[0]!.resourceId]))
          const sql = yield* PgClient.PgClient
          const n = yield* sql<{ n: number }>`select count(*)::int as n from searches where application_id = ${app.id}`
          expect(n[0]!.n).toBe(1)
          const stored = Option.getOrThrow(yield* (yield* Searches.SearchesRepo).get(app.id, created[0]!.resourceId))
          expect(stored.body.idempotency_key).toBe("key-1")
        }))

      it.effect("the same key with a different request is refused; keys are scoped per application", () =>
        Effect.gen(function*() {
          const keys = yield* ApiKeys.ApiKeysRepo
          const a = yield* keys.ensureApplication("idem-a")
          const b = yield* keys.ensureApplication("idem-b")
          const first = yield* createWithKey(a.id, "k", body)
          const reused = yield* Effect.either(createWithKey(a.id, "k", { ...body, name: "Other Inc" }))
          expect(Either.isLeft(reused) && reused.left._tag).toBe("IdempotencyKeyReused")
          const otherApp = yield* createWithKey(b.id, "k", body)
          expect(otherApp._tag).toBe("Created")
          expect(otherApp.resourceId).not.toBe(first.resourceId)
        }))
    })

    if (backend.sameDatabase !== undefined) {
      const sameDatabase = backend.sameDatabase
      layer(Live, { timeout: "60 seconds" })((it) => {
        it.effect("holds across processes: 50 requests over two connection pools create one search", () =>
          Effect.gen(function*() {
            const app = yield* (yield* ApiKeys.ApiKeysRepo).ensureApplication("idem-pools")
            const url = Redacted.value((yield* PgClient.PgClient).config.url!)
            const otherProcess = Host.layerRepos.pipe(Layer.provide(sameDatabase(url)))
            const here = Array.from({ length: 25 }, () => createWithKey(app.id, "shared", body))
            const there = Array.from(
              { length: 25 },
              () => createWithKey(app.id, "shared", body).pipe(Effect.provide(otherProcess))
            )
            const claims = yield* Effect.all([...here, ...there], { concurrency: "unbounded" })
            expect(claims.filter((c) => c._tag === "Created")).toHaveLength(1)
            expect(new Set(claims.map((c) => c.resourceId)).size).toBe(1)
          }))
      })
    }
  })
}
