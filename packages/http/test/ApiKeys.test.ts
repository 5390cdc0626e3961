import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
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
