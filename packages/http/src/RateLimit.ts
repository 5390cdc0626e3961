/**
 * The per-key rate limit (DECISIONS section 5): a token bucket per API key, checked before the
 * request is routed (so an over-limit caller costs no key lookup and no body read), answering 429
 * `{"detail"}` with `Retry-After` in whole seconds. Buckets are keyed by a hash of the presented
 * key, kept per process: with N replicas behind a load balancer a key gets up to N times the rate.
 * Requests without a key are not limited here (they are 401s).
 */
import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect } from "effect"
import { createHash } from "node:crypto"

/** Requests per second a key may make on average, and the burst it may make at once. */
export interface RateLimitOptions {
  readonly perSecond: number
  readonly burst: number
}

interface Bucket {
  tokens: number
  at: number
}

/** Buckets forgotten when this many are held (the least recently refilled first). */
const MAX_BUCKETS = 100_000

/** A limiter: takes one token for a key, or says how long until one is there. */
export const makeLimiter = (options: RateLimitOptions) => {
  const buckets = new Map<string, Bucket>()
  return (key: string, now: number): number => {
    let b = buckets.get(key)
    if (b === undefined) {
      if (buckets.size >= MAX_BUCKETS) buckets.delete(buckets.keys().next().value!)
      b = { tokens: options.burst, at: now }
    } else {
      buckets.delete(key)
      b.tokens = Math.min(options.burst, b.tokens + ((now - b.at) / 1000) * options.perSecond)
      b.at = now
    }
    buckets.set(key, b)
    if (b.tokens >= 1) {
      b.tokens -= 1
      return 0
    }
    return ((1 - b.tokens) / options.perSecond) * 1000
  }
}

/** Wraps an app with the limit. */
export const middleware = (options: RateLimitOptions) => {
  const take = makeLimiter(options)
  return <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.gen(function*() {
      const req = yield* HttpServerRequest.HttpServerRequest
      const presented = req.headers["x-api-key"]
      if (presented === undefined || presented === "") return yield* app
      const id = createHash("sha256").update(presented).digest("base64url")
      const wait = take(id, yield* Clock.currentTimeMillis)
      if (wait === 0) return yield* app
      return HttpServerResponse.unsafeJson(
        {
          detail:
            `Rate limit exceeded: at most ${options.perSecond} requests a second per key (burst ${options.burst}).`
        },
        { status: 429, headers: { "retry-after": String(Math.max(1, Math.ceil(wait / 1000))) } }
      )
    })
}
