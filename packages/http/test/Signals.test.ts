import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { Backends } from "@osiris/testkit"
import { Effect, Layer, Redacted, TestServices } from "effect"
import { Database, Signals } from "../src/index.js"

const server = Backends.all().find((b) => b.sameDatabase !== undefined)

describe.skipIf(server === undefined)("search signals on PostgreSQL (LISTEN/NOTIFY)", () => {
  layer(
    Signals.SearchSignals.layer.pipe(Layer.provideMerge(server === undefined ? Layer.empty as never : server.fresh())),
    { timeout: "60 seconds" }
  )((it) => {
    it.effect("a finish announced by another connection wakes the waiter at once, only for its own id", () =>
      TestServices.provideLive(Effect.gen(function*() {
        const signals = yield* Signals.SearchSignals
        const url = Redacted.value((yield* PgClient.PgClient).config.url!)
        const other = Database.layerPostgres(Redacted.make(url))
        const notify = (id: string) =>
          Effect.flatMap(PgClient.PgClient, (sql) => sql`select pg_notify(${Signals.CHANNEL}, ${id})`).pipe(
            Effect.provide(other),
            Effect.scoped
          )
        const elapsed = yield* Effect.scoped(Effect.gen(function*() {
          const done = yield* signals.watch("search-a")
          const started = Date.now()
          yield* Effect.fork(Effect.zipRight(Effect.sleep("100 millis"), notify("search-b")))
          yield* Effect.fork(Effect.zipRight(Effect.sleep("200 millis"), notify("search-a")))
          yield* done
          return Date.now() - started
        }))
        // Woken by its own id (after ~200 ms), not by the other one, and well before the 1 s fallback.
        expect(elapsed).toBeGreaterThanOrEqual(150)
        expect(elapsed).toBeLessThan(900)
      })))
  })
})
