/**
 * Running searches. `execute` runs one claimed search with the engine of its environment and
 * finishes it (only while this process holds the lease). `worker` claims due searches (PENDING,
 * or EXECUTING whose lease ran out because a process stalled or died) in a loop, so any number of
 * host processes share the work and a killed process loses nothing.
 */
import { Engine, Formats, SearchRequest } from "@osiris/core"
import { Clock, Context, type Duration, Effect, Schema } from "effect"
import type { Environment } from "../ApiKeys/Repo.js"
import { type ClaimedSearch, SearchesRepo } from "./Repo.js"

/** The engine for each environment: sandbox keys see the sandbox registry only (DECISIONS section 3). */
export class Engines extends Context.Tag("@osiris/http/Engines")<Engines, {
  readonly SANDBOX: Context.Tag.Service<Engine.Engine>
  readonly PRODUCTION: Context.Tag.Service<Engine.Engine>
}>() {}

/**
 * How long a claim lasts before another process may take the search over (default 60 s; the host
 * reads `OSIRIS_LEASE_SECONDS`). A search takes milliseconds; the lease only bounds how long a
 * dead process's searches wait.
 */
export class LeaseMillis extends Context.Reference<LeaseMillis>()("@osiris/http/LeaseMillis", {
  defaultValue: () => 60_000
}) {}

const decodeRequest = Schema.decodeUnknown(SearchRequest.CreateSearchRequest)

/** Runs a claimed search and finishes it; the finished Search, or undefined if the lease was lost. */
export const execute = (claimed: ClaimedSearch) =>
  Effect.gen(function*() {
    const engines = yield* Engines
    const searches = yield* SearchesRepo
    const engine = engines[claimed.environment as Environment]
    const request = yield* decodeRequest(claimed.request).pipe(Effect.orDie)
    const v = yield* engine.verify(
      claimed.businessId === null ? { request } : { request, businessId: claimed.businessId }
    )
    const finished = Engine.toSearch(v, {
      id: claimed.body.id,
      created_at: claimed.body.created_at,
      updated_at: Formats.timestampFromMillis(yield* Clock.currentTimeMillis),
      options: claimed.body.options,
      orderables: claimed.body.orderables,
      user: claimed.body.user,
      idempotency_key: claimed.body.idempotency_key
    }, engine.config)
    const ok = yield* searches.finish(claimed.id, claimed.leaseOwner, v.state, finished)
    return ok ? finished : undefined
  }).pipe(
    // Stopped mid-search (shutdown): hand the search back at once rather than after the lease.
    Effect.onInterrupt(() =>
      Effect.flatMap(SearchesRepo, (searches) => searches.release(claimed.id, claimed.leaseOwner)).pipe(
        Effect.catchAllCause((cause) => Effect.logError("handing back a search failed", cause))
      )
    )
  )

/**
 * The loop every kind of work item runs (searches, orderables): claim a batch under a lease, run it,
 * and poll when there was nothing to do. The claim and the hand-back are one against interruption:
 * a stop between the claim and the work, or during it, hands back every item of the batch at once
 * (a finished item is no longer EXECUTING, so handing it back does nothing).
 */
export const claimLoop = <A, R>(options: {
  readonly claim: (leaseMillis: number) => Effect.Effect<ReadonlyArray<A>, never, R>
  readonly run: (item: A) => Effect.Effect<unknown, unknown, R>
  readonly release: (item: A) => Effect.Effect<void, never, R>
  readonly what: string
  readonly concurrency?: number
  readonly poll?: Duration.DurationInput
}) =>
  Effect.gen(function*() {
    for (;;) {
      const leaseMillis = yield* LeaseMillis
      const claimed = yield* Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(options.claim(leaseMillis), (claimed) =>
          restore(Effect.forEach(
            claimed,
            (item) =>
              options.run(item).pipe(Effect.catchAllCause((cause) => Effect.logError(`${options.what} failed`, cause))),
            { concurrency: options.concurrency ?? 1, discard: true }
          )).pipe(
            Effect.onInterrupt(() => Effect.forEach(claimed, options.release, { discard: true })),
            Effect.as(claimed)
          ))
      )
      if (claimed.length === 0) yield* Effect.sleep(options.poll ?? "250 millis")
    }
  })

/** Claims and runs due searches until interrupted, polling when there is nothing to do. */
export const worker = (
  owner: string,
  options: { readonly poll?: Duration.DurationInput; readonly batch?: number } = {}
) =>
  Effect.flatMap(SearchesRepo, (searches) =>
    claimLoop({
      claim: (leaseMillis) => searches.claim(owner, leaseMillis, options.batch ?? 10),
      run: execute,
      release: (c) => searches.release(c.id, c.leaseOwner),
      what: "search",
      ...(options.poll === undefined ? {} : { poll: options.poll })
    }))
