/**
 * Waking synchronous requests when a search finishes (DECISIONS section 1, across processes): on
 * PostgreSQL, finishing a search sends `NOTIFY osiris_search_done, '<id>'` in its transaction, and
 * every process LISTENs once and fans the ids out to its waiting requests; on the embedded default
 * (one process) requests poll. A waiter subscribes before it reads the search, so a finish between
 * the read and the wait is not missed.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, PubSub, Queue, Schedule, type Scope, Stream } from "effect"

/** The channel finished searches are announced on. */
export const CHANNEL = "osiris_search_done"

/** Subscriptions to finished searches. */
export class SearchSignals extends Context.Tag("@osiris/http/SearchSignals")<SearchSignals, {
  /** Subscribes for a search; the effect returned completes when it may have finished. */
  readonly watch: (id: string) => Effect.Effect<Effect.Effect<void>, never, Scope.Scope>
}>() {
  /** Polling every 50 ms (the embedded default: one process). */
  static readonly layerPolling = Layer.succeed(SearchSignals, {
    watch: () => Effect.succeed(Effect.sleep("50 millis"))
  })

  /** LISTEN/NOTIFY on a PostgreSQL server, polling on the embedded PGlite (it serves one session). */
  static readonly layer = Layer.unwrapEffect(
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const rows = yield* sql<{ version: string }>`select version()`.pipe(Effect.orDie)
      return /PGlite/.test(rows[0]?.version ?? "") ? SearchSignals.layerPolling : SearchSignals.layerListen
    })
  )

  /** LISTEN/NOTIFY on PostgreSQL, with a 1 s poll as a safety net if the listening connection drops. */
  static readonly layerListen = Layer.scoped(
    SearchSignals,
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const hub = yield* PubSub.unbounded<string>()
      yield* sql.listen(CHANNEL).pipe(
        Stream.runForEach((id) => PubSub.publish(hub, id)),
        Effect.tapErrorCause((cause) => Effect.logWarning("search notifications interrupted", cause)),
        Effect.retry(Schedule.spaced("1 second")),
        Effect.forkScoped
      )
      return {
        watch: (id: string) =>
          Effect.map(PubSub.subscribe(hub), (sub) =>
            Effect.raceFirst(
              Queue.take(sub).pipe(Effect.repeat({ until: (got) => got === id }), Effect.asVoid),
              Effect.sleep("1 second")
            ))
      }
    })
  )
}
