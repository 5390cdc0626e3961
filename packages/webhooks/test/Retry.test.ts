import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Option, TestClock } from "effect"
import { Retry } from "../src/index.js"

describe("Retry schedule (DECISIONS section 8)", () => {
  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up", () => {
    const mid = [1, 2, 3, 4, 5, 6, 7].map((n) => Duration.toSeconds(Option.getOrThrow(Retry.delayAfter(n, 0.5))))
    expect(mid).toStrictEqual([5, 300, 1800, 7200, 18000, 36000, 36000])
    expect(Option.isNone(Retry.delayAfter(8, 0.5))).toBe(true)
    expect(Retry.MAX_ATTEMPTS).toBe(8)
  })

  it("jitters within 10% either way and honours Retry-After", () => {
    expect(Duration.toMillis(Option.getOrThrow(Retry.delayAfter(1, 0)))).toBe(4500)
    expect(Duration.toMillis(Option.getOrThrow(Retry.delayAfter(1, 0.999999)))).toBe(5500)
    expect(Duration.toSeconds(Option.getOrThrow(Retry.delayAfter(1, 0.5, Duration.seconds(120))))).toBe(120)
    expect(Duration.toSeconds(Option.getOrThrow(Retry.delayAfter(2, 0.5, Duration.seconds(1))))).toBe(300)
    expect(Duration.toHours(Option.getOrThrow(Retry.delayAfter(1, 0.5, Duration.days(9))))).toBe(24)
    expect(Retry.parseRetryAfter("30", 0)).toStrictEqual(Duration.seconds(30))
    expect(Retry.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("Wed, 21 Oct 2015 07:27:00 GMT")))
      .toStrictEqual(Duration.millis(60_000))
    expect(Retry.parseRetryAfter("soon", 0)).toBeUndefined()
  })

  it.effect("a receiver failing three times gets the event on the fourth attempt, on schedule", () =>
    Effect.gen(function*() {
      const times: Array<number> = []
      const fiber = yield* Effect.fork(Retry.deliver((n) =>
        Effect.gen(function*() {
          times.push(yield* TestClock.currentTimeMillis)
          return n <= 3
            ? Retry.AttemptOutcome.Response({ status: 503 })
            : Retry.AttemptOutcome.Response({ status: 204 })
        })
      ))
      yield* TestClock.adjust("1 hour")
      const result = yield* Fiber.join(fiber)
      expect(result).toStrictEqual({ _tag: "Delivered", attempts: 4 })
      const gaps = times.slice(1).map((t, i) => (t - times[i]!) / 1000)
      expect(gaps[0]).toBeGreaterThanOrEqual(4.5)
      expect(gaps[0]).toBeLessThanOrEqual(5.5)
      expect(gaps[1]).toBeGreaterThanOrEqual(270)
      expect(gaps[1]).toBeLessThanOrEqual(330)
      expect(gaps[2]).toBeGreaterThanOrEqual(1620)
      expect(gaps[2]).toBeLessThanOrEqual(1980)
    }))

  it.effect("410 Gone stops at once; no response keeps retrying until exhausted", () =>
    Effect.gen(function*() {
      expect(yield* Retry.deliver(() => Effect.succeed(Retry.AttemptOutcome.Response({ status: 410 })))).toStrictEqual({
        _tag: "Gone",
        attempts: 1
      })
      const fiber = yield* Effect.fork(
        Retry.deliver(() => Effect.succeed(Retry.AttemptOutcome.NoResponse({ reason: "connection refused" })))
      )
      yield* TestClock.adjust("3 days")
      expect(yield* Fiber.join(fiber)).toStrictEqual({ _tag: "Exhausted", attempts: 8 })
    }))
})
