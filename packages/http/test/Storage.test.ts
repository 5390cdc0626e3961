import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, it, layer } from "@effect/vitest"
import { Backends } from "@osiris/testkit"
import { Effect, Exit, Fiber, Redacted, TestServices } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database, Migrations } from "../src/index.js"

for (const backend of Backends.all()) {
  describe(`storage on ${backend.name}`, () => {
    layer(backend.fresh(), { timeout: "60 seconds" })((it) => {
      it.effect("runs the migrations once, and again finds nothing to do", () =>
        Effect.gen(function*() {
          const first = yield* Migrations.run
          expect(first.map(([id]) => id)).toStrictEqual(Object.keys(Migrations.migrations).map((_, i) => i + 1))
          expect(yield* Migrations.run).toStrictEqual([])
          const sql = yield* SqlClient.SqlClient
          const tables = yield* sql<{ tableName: string }>`
            select table_name from information_schema.tables where table_schema = 'public' order by table_name`
          expect(tables.map((t) => t.tableName)).toEqual(
            expect.arrayContaining([
              "api_keys",
              "applications",
              "idempotency_keys",
              "osiris_migrations",
              "searches",
              "webhook_attempts",
              "webhook_deliveries",
              "webhook_endpoints",
              "webhook_events"
            ])
          )
        }))

      it.effect(
        "keeps transactions apart: uncommitted rows stay invisible, a rollback leaves nothing",
        () =>
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            yield* sql`create table if not exists probe (id integer primary key)`
            const writer = yield* Effect.fork(sql.withTransaction(Effect.gen(function*() {
              yield* sql`insert into probe (id) values (1)`
              yield* TestServices.provideLive(Effect.sleep("100 millis"))
              return yield* Effect.fail("roll back" as const)
            })))
            yield* TestServices.provideLive(Effect.sleep("20 millis"))
            const seen = yield* sql<{ n: number }>`select count(*)::int as n from probe`
            expect(seen[0]!.n).toBe(0)
            expect(Exit.isFailure(yield* Fiber.await(writer))).toBe(true)
            const after = yield* sql<{ n: number }>`select count(*)::int as n from probe`
            expect(after[0]!.n).toBe(0)
          }),
        { timeout: 30_000 }
      )

      it.effect("serialises concurrent read-modify-write transactions (no lost update)", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`create table if not exists counter (id integer primary key, n integer not null)`
          yield* sql`insert into counter (id, n) values (1, 0) on conflict (id) do update set n = 0`
          yield* Effect.forEach(Array.from({ length: 40 }, (_, i) => i), () =>
            sql.withTransaction(Effect.gen(function*() {
              const rows = yield* sql<{ n: number }>`select n from counter where id = 1 for update`
              yield* sql`update counter set n = ${rows[0]!.n + 1} where id = 1`
            })), { concurrency: 8, discard: true })
          const rows = yield* sql<{ n: number }>`select n from counter where id = 1`
          expect(rows[0]!.n).toBe(40)
        }), { timeout: 30_000 })
    })

    if (backend.sameDatabase !== undefined) {
      const sameDatabase = backend.sameDatabase
      layer(backend.fresh(), { timeout: "60 seconds" })((it) => {
        it.effect("migrates safely when several processes start at once", () =>
          Effect.gen(function*() {
            const pg = yield* PgClient.PgClient
            const url = Redacted.value(pg.config.url!)
            const results = yield* Effect.forEach(
              [1, 2, 3, 4],
              () => Migrations.run.pipe(Effect.provide(sameDatabase(url)), Effect.scoped),
              { concurrency: "unbounded" }
            )
            expect(results.filter((r) => r.length > 0)).toHaveLength(1)
            expect(results.flat().map(([id]) => id)).toStrictEqual(
              Object.keys(Migrations.migrations).map((_, i) => i + 1)
            )
          }))
      })
    }
  })
}

describe("embedded storage on disk", () => {
  it.live("keeps committed data across a restart", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "osiris-pg-"))
      const write = Effect.gen(function*() {
        yield* Migrations.run
        const sql = yield* SqlClient.SqlClient
        yield* sql`insert into applications (id, name, created_at) values (${"0192f3a4-5b6c-7d8e-9f01-000000000001"}, ${"demo"}, now())`
      })
      yield* write.pipe(Effect.provide(Database.layerEmbedded(dir)), Effect.scoped)
      const names = yield* Effect.gen(function*() {
        expect(yield* Migrations.run).toStrictEqual([])
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ name: string }>`select name from applications`
      }).pipe(Effect.provide(Database.layerEmbedded(dir)), Effect.scoped)
      expect(names.map((r) => r.name)).toStrictEqual(["demo"])
    }), 60_000)
})
