import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Backends } from "@osiris/testkit"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import { ApiKeys, Host } from "../src/index.js"

for (const backend of Backends.all()) {
  const Live = Host.layerRepos.pipe(Layer.provideMerge(backend.fresh()))

  describe(`API keys on ${backend.name}`, () => {
    layer(Live, { timeout: "60 seconds" })((it) => {
      it.effect("shows a new key once and stores only its hash", () =>
        Effect.gen(function*() {
          const repo = yield* ApiKeys.ApiKeysRepo
          const app = yield* repo.ensureApplication("acme")
          expect((yield* repo.ensureApplication("acme")).id).toBe(app.id)
          const created = yield* repo.create({
            applicationId: app.id,
            environment: "SANDBOX",
            name: "ci",
            scopes: ["searches:write", "searches:read"]
          })
          const key = Redacted.value(created.key)
          expect(key).toMatch(/^osk_test_[A-Za-z0-9_-]{43}$/)
          expect(created.record).toMatchObject({
            applicationName: "acme",
            environment: "SANDBOX",
            prefix: key.slice(0, 13),
            scopes: ["searches:write", "searches:read"],
            defaultRequestMode: "sync",
            revokedAt: null
          })
          expect(created.record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
          // No plaintext key anywhere: scan every text-like column of every table.
          const sql = yield* SqlClient.SqlClient
          const columns = yield* sql<{ tableName: string; columnName: string }>`
            select table_name, column_name from information_schema.columns
            where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'ARRAY', 'bytea')`
          for (const c of columns) {
            const hits = yield* sql.unsafe<{ n: number }>(
              `select count(*)::int as n from "${c.tableName}" where position($1 in "${c.columnName}"::text) > 0`,
              [key]
            )
            expect(hits[0]!.n).toBe(0)
          }
        }))

      it.effect("authenticates good keys and says why others are refused", () =>
        Effect.gen(function*() {
          const repo = yield* ApiKeys.ApiKeysRepo
          const app = yield* repo.ensureApplication("beta")
          const live = yield* repo.create({
            applicationId: app.id,
            environment: "PRODUCTION",
            name: "prod",
            scopes: []
          })
          const key = Redacted.value(live.key)
          expect((yield* repo.authenticate(key)).environment).toBe("PRODUCTION")
          const reason = (k: string | undefined) =>
            repo.authenticate(k).pipe(Effect.either, Effect.map((r) => (Either.isLeft(r) ? r.left.reason : "ok")))
          expect(yield* reason(undefined)).toBe("missing")
          expect(yield* reason("")).toBe("missing")
          expect(yield* reason("osk_live_short")).toBe("malformed")
          expect(yield* reason(key.slice(0, -1) + (key.endsWith("A") ? "B" : "A"))).toBe("unknown")
          expect(yield* reason(key.replace("osk_live_", "osk_test_"))).toBe("unknown")
          const revoked = yield* repo.revoke(app.id, live.record.id)
          expect(Option.getOrThrow(revoked).revokedAt).not.toBeNull()
          expect(yield* reason(key)).toBe("revoked")
        }))

      it.effect("lists an application's keys per environment, and never another application's", () =>
        Effect.gen(function*() {
          const repo = yield* ApiKeys.ApiKeysRepo
          const a = yield* repo.ensureApplication("gamma")
          const b = yield* repo.ensureApplication("delta")
          yield* repo.create({ applicationId: a.id, environment: "SANDBOX", name: "one", scopes: [] })
          yield* repo.create({ applicationId: a.id, environment: "SANDBOX", name: "two", scopes: [] })
          yield* repo.create({ applicationId: a.id, environment: "PRODUCTION", name: "three", scopes: [] })
          const other = yield* repo.create({ applicationId: b.id, environment: "SANDBOX", name: "theirs", scopes: [] })
          expect((yield* repo.list(a.id, "SANDBOX")).map((k) => k.name)).toStrictEqual(["one", "two"])
          expect(Option.isNone(yield* repo.revoke(a.id, other.record.id))).toBe(true)
          expect((yield* repo.authenticate(Redacted.value(other.key))).revokedAt).toBeNull()
        }))
    })
  })
}

describe("key comparison", () => {
  it("decides on SHA-256 digests with a comparison whose time does not depend on where they differ", () => {
    const key = ApiKeys.newKey("SANDBOX")
    const digest = ApiKeys.hashKey(key)
    expect(ApiKeys.sameDigest(digest, ApiKeys.hashKey(key))).toBe(true)
    const firstByte = Buffer.from(digest)
    firstByte[0]! ^= 1
    const lastByte = Buffer.from(digest)
    lastByte[31]! ^= 1
    expect(ApiKeys.sameDigest(digest, firstByte)).toBe(false)
    expect(ApiKeys.sameDigest(digest, lastByte)).toBe(false)
    expect(ApiKeys.sameDigest(digest, digest.subarray(0, 16))).toBe(false)
    // An early-exit comparison answers a first-byte difference sooner than a last-byte one. Timed
    // side by side in alternating batches, the two take the same time (the margin is for a shared machine).
    const batch = (other: Buffer) => {
      const t = process.hrtime.bigint()
      for (let i = 0; i < 50_000; i++) ApiKeys.sameDigest(digest, other)
      return Number(process.hrtime.bigint() - t)
    }
    const early: Array<number> = []
    const late: Array<number> = []
    for (let round = 0; round < 9; round++) {
      early.push(batch(firstByte))
      late.push(batch(lastByte))
    }
    const median = (xs: Array<number>) => xs.sort((a, b) => a - b)[4]!
    expect(median(early) / median(late)).toBeGreaterThan(0.5)
    expect(median(early) / median(late)).toBeLessThan(2)
  })
})
