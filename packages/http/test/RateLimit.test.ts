import { describe, expect, it, layer } from "@effect/vitest"
import { Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect } from "effect"
import { RateLimit } from "../src/index.js"

describe("makeLimiter", () => {
  it("allows the burst, then one request per 1/rate seconds, per key", () => {
    const take = RateLimit.makeLimiter({ perSecond: 2, burst: 3 })
    expect([take("a", 0), take("a", 0), take("a", 0)]).toEqual([0, 0, 0])
    expect(take("a", 0)).toBe(500)
    expect(take("b", 0)).toBe(0)
    expect(take("a", 499)).toBeGreaterThan(0)
    expect(take("a", 1000)).toBe(0)
    // Refills up to the burst, never beyond.
    expect([take("c", 0), take("c", 60_000), take("c", 60_000), take("c", 60_000), take("c", 60_000)]).toEqual([
      0,
      0,
      0,
      0,
      500
    ])
  })
})

const backend = Backends.all()[0]!
describe("the per-key rate limit over HTTP", () => {
  layer(
    TestHost.layer(backend, {
      sandboxRegistry: Synthetic.registry(5, 20),
      serve: { rateLimit: { perSecond: 1, burst: 3 } }
    }),
    {
      timeout: "60 seconds"
    }
  )((it) => {
    it.effect("429 with Retry-After and the documented body once a key spends its burst; other keys unaffected", () =>
      Effect.gen(function*() {
        const { base, key, live } = yield* TestHost.client
        const get = (k: string) => Effect.promise(() => fetch(`${base}/searches`, { headers: { "x-api-key": k } }))
        const statuses = []
        for (let i = 0; i < 4; i++) statuses.push((yield* get(key)).status)
        expect(statuses).toEqual([200, 200, 200, 429])
        const limited = yield* get(key)
        expect(limited.status).toBe(429)
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
        expect(yield* Effect.promise(() => limited.json())).toEqual({
          detail: "Rate limit exceeded: at most 1 requests a second per key (burst 3)."
        })
        expect((yield* get(live)).status).toBe(200)
        // Health checks carry no key and are never limited.
        for (let i = 0; i < 5; i++) {
          expect((yield* Effect.promise(() => fetch(`${base}/health/live`))).status).toBe(200)
        }
      }))
  })
})
