/**
 * The delivery worker. It keeps up to `capacity` attempts in flight: it claims due deliveries when
 * there is room, sends each (signed at the moment of sending, with the old secret too during a
 * rotation), and a recorder writes the finished attempts in batches, one statement per batch. A
 * failed attempt is scheduled by `Retry.delayAfter` (jitter from Effect's `Random`, `Retry-After`
 * honoured); 410 disables the endpoint; after the last attempt the delivery is EXHAUSTED and kept.
 * Storage errors (a database restart) are logged and retried; nothing is lost, because a claimed
 * delivery whose outcome was not recorded is claimed again when its lease runs out.
 */
import { Formats } from "@osiris/core"
import { Chunk, Clock, Duration, Effect, FiberSet, Option, Queue, Random, Ref, Schedule } from "effect"
import type { GuardOptions } from "./Guard.js"
import { delayAfter, parseRetryAfter } from "./Retry.js"
import { type Agents, makeAgents, post } from "./Sender.js"
import { headersFor } from "./Signature.js"
import { type ClaimedDelivery, type Outcome, WebhookStore } from "./Store.js"

/** How the worker runs. */
export interface DispatcherOptions {
  /** Names this worker's leases (unique per process). */
  readonly owner: string
  readonly guard: GuardOptions
  /** Attempts in flight at most. */
  readonly capacity?: number
  /** Deliveries claimed per query at most. */
  readonly batch?: number
  /** How long to wait when nothing is due. */
  readonly poll?: Duration.DurationInput
  /** How long a claim lasts (longer than an attempt's 15 s limit plus recording). */
  readonly leaseMillis?: number
  /** The limit of one attempt. */
  readonly timeoutMillis?: number
  readonly agents?: Agents
}

/** Sends one claimed delivery and says what to record. */
export const attempt = (d: ClaimedDelivery, options: DispatcherOptions & { readonly agents: Agents }) =>
  Effect.gen(function*() {
    const nowMillis = yield* Clock.currentTimeMillis
    const rotating = d.previousSecret !== null && d.previousSecretUntil !== null &&
      Formats.timestampToMillis(d.previousSecretUntil) > nowMillis
    const headers = headersFor(
      rotating ? [d.secret, d.previousSecret!] : [d.secret],
      d.eventId,
      Math.floor(nowMillis / 1000),
      d.payload
    )
    const result = yield* post({
      url: d.url,
      headers,
      body: d.payload,
      guard: options.guard,
      agents: options.agents,
      ...(options.timeoutMillis === undefined ? {} : { timeoutMillis: options.timeoutMillis })
    })
    const n = d.attempts + 1
    const at = yield* Clock.currentTimeMillis
    const ok = result.status !== null && result.status >= 200 && result.status < 300
    const gone = result.status === 410
    const wait = ok || gone
      ? Option.none()
      : delayAfter(n, yield* Random.next, parseRetryAfter(result.retryAfter, at))
    const outcome: Outcome = {
      id: d.id,
      endpointId: d.endpointId,
      attempt: n,
      at: Formats.timestampFromMillis(at),
      status: result.status,
      latencyMs: result.latencyMillis,
      error: result.error,
      response: result.response,
      state: ok ? "DELIVERED" : gone ? "DISCARDED" : Option.isSome(wait) ? "PENDING" : "EXHAUSTED",
      nextAttemptAt: Option.isSome(wait) ? Formats.timestampFromMillis(at + Duration.toMillis(wait.value)) : null,
      gone
    }
    return outcome
  })

/** Runs the delivery worker until interrupted; on interruption it hands back what it holds. */
export const run = (options: DispatcherOptions) =>
  Effect.scoped(Effect.gen(function*() {
    const store = yield* WebhookStore
    const agents = options.agents ?? makeAgents(options.guard)
    const capacity = options.capacity ?? 256
    const batch = options.batch ?? 100
    const leaseMillis = options.leaseMillis ?? 60_000
    const poll = options.poll ?? "250 millis"
    const inFlight = yield* Ref.make(0)
    const finished = yield* Queue.unbounded<Outcome>()
    const withAgents = { ...options, agents }
    const attempts = yield* FiberSet.make()

    // Storage errors are retried with a pause; the outcomes wait in memory meanwhile.
    const retrying = <A, E, R>(what: string, effect: Effect.Effect<A, E, R>) =>
      effect.pipe(
        Effect.tapErrorCause((cause) => Effect.logWarning(`webhooks: ${what} failed`, cause)),
        Effect.retry({ schedule: Schedule.spaced("1 second") })
      )

    yield* Effect.addFinalizer(() => store.release(options.owner).pipe(Effect.ignore))
    yield* Effect.forkScoped(Effect.forever(Effect.gen(function*() {
      const outcomes = Chunk.toReadonlyArray(yield* Queue.takeBetween(finished, 1, 1000))
      yield* retrying("recording attempts", Effect.catchAllDefect(store.record(options.owner, outcomes), Effect.fail))
      yield* Ref.update(inFlight, (n) => n - outcomes.length)
    })))

    for (;;) {
      const room = capacity - (yield* Ref.get(inFlight))
      const claimed = room <= 0 ? [] : yield* store.claim(options.owner, leaseMillis, Math.min(room, batch)).pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logWarning("webhooks: claiming deliveries failed", cause), [] as ReadonlyArray<never>)
        )
      )
      if (claimed.length > 0) {
        yield* Ref.update(inFlight, (n) => n + claimed.length)
        for (const d of claimed) {
          yield* FiberSet.run(attempts, Effect.flatMap(attempt(d, withAgents), (o) => Queue.offer(finished, o)))
        }
      }
      // Full, or a whole batch found: look again soon; nothing due: wait for the poll interval.
      if (claimed.length === 0) yield* Effect.sleep(room <= 0 ? "5 millis" : poll)
    }
  }))
