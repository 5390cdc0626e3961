/**
 * The delivery retry schedule (DECISIONS section 8): after a failed attempt, wait 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h (eight attempts in all), each with +-10% jitter, never sooner than a
 * `Retry-After` the receiver sent; success is a 2xx; 410 Gone disables the endpoint at once.
 */
import { Data, Duration, Effect, Option, Random } from "effect"

/** Delays after the 1st, 2nd, ... failed attempt. */
export const DELAYS: ReadonlyArray<Duration.Duration> = [
  Duration.seconds(5),
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(2),
  Duration.hours(5),
  Duration.hours(10),
  Duration.hours(10)
]

/** Attempts before a delivery is exhausted. */
export const MAX_ATTEMPTS = DELAYS.length + 1

/** Jitter around each delay (a share of it, either way). */
export const JITTER = 0.1

/** How long a receiver's `Retry-After` may push a retry out, at most. */
export const MAX_RETRY_AFTER = Duration.hours(24)

/**
 * The wait before the next attempt, after `failedAttempts` failures (1-based), with `jitter` in
 * [0, 1) and an optional `Retry-After`; none when the delivery is exhausted.
 */
export const delayAfter = (
  failedAttempts: number,
  jitter: number,
  retryAfter?: Duration.Duration
): Option.Option<Duration.Duration> => {
  const base = DELAYS[failedAttempts - 1]
  if (base === undefined) return Option.none()
  const jittered = Duration.millis(Math.round(Duration.toMillis(base) * (1 - JITTER + 2 * JITTER * jitter)))
  if (retryAfter === undefined) return Option.some(jittered)
  return Option.some(Duration.max(jittered, Duration.min(retryAfter, MAX_RETRY_AFTER)))
}

/** What one attempt got back. */
export type AttemptOutcome = Data.TaggedEnum<{
  Response: { readonly status: number; readonly retryAfter?: Duration.Duration }
  /** No response: connection refused, reset, or the 15 s timeout. */
  NoResponse: { readonly reason: string }
}>
/** Constructors of AttemptOutcome. */
export const AttemptOutcome = Data.taggedEnum<AttemptOutcome>()

/** How a delivery ended. */
export type DeliveryResult =
  | { readonly _tag: "Delivered"; readonly attempts: number }
  | { readonly _tag: "Gone"; readonly attempts: number }
  | { readonly _tag: "Exhausted"; readonly attempts: number }

/** The `Retry-After` header as a duration (seconds, or an HTTP date relative to `now`). */
export const parseRetryAfter = (value: string | null | undefined, nowMillis: number): Duration.Duration | undefined => {
  if (value === null || value === undefined) return undefined
  const v = value.trim()
  if (/^\d+$/.test(v)) return Duration.seconds(Number(v))
  const at = Date.parse(v)
  return Number.isNaN(at) ? undefined : Duration.millis(Math.max(0, at - nowMillis))
}

/**
 * Runs attempts until one succeeds (2xx), the receiver answers 410, or the schedule is exhausted,
 * sleeping on Effect's clock between them (jitter from Effect's Random, so tests are deterministic).
 * The durable, multi-process version keeps the same schedule in the outbox table.
 */
export const deliver = <E, R>(
  attempt: (n: number) => Effect.Effect<AttemptOutcome, E, R>
): Effect.Effect<DeliveryResult, E, R> =>
  Effect.gen(function*() {
    for (let n = 1;; n++) {
      const outcome = yield* attempt(n)
      if (outcome._tag === "Response" && outcome.status >= 200 && outcome.status < 300) {
        return { _tag: "Delivered", attempts: n } as const
      }
      if (outcome._tag === "Response" && outcome.status === 410) return { _tag: "Gone", attempts: n } as const
      const wait = delayAfter(n, yield* Random.next, outcome._tag === "Response" ? outcome.retryAfter : undefined)
      if (Option.isNone(wait)) return { _tag: "Exhausted", attempts: n } as const
      yield* Effect.sleep(wait.value)
    }
  })
