import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Random, TestClock } from "effect"
import { Ids } from "../src/index.js"

const next = Effect.flatMap(Ids.Ids, (ids) => ids.next)

describe("Ids", () => {
  it.effect("makes UUIDv7 ids carrying the time, strictly increasing within a millisecond", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 0, 31, 12, 0, 0))
      const ids: Array<string> = []
      for (let i = 0; i < 300; i++) ids.push(yield* next)
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(ids[0]!.replace(/-/g, "").slice(0, 12)).toBe(
        Date.UTC(2026, 0, 31, 12, 0, 0).toString(16).padStart(12, "0")
      )
      expect([...ids].sort()).toStrictEqual(ids)
      expect(new Set(ids).size).toBe(ids.length)
      yield* TestClock.adjust("1 second")
      const later = yield* next
      expect(later > ids[ids.length - 1]!).toBe(true)
    }).pipe(Effect.provide(Ids.Ids.layer)))

  it("is deterministic for a seeded Random and a fixed clock", () => {
    const fixed: Clock.Clock = {
      [Clock.ClockTypeId]: Clock.ClockTypeId,
      unsafeCurrentTimeMillis: () => 1_767_225_600_000,
      currentTimeMillis: Effect.succeed(1_767_225_600_000),
      unsafeCurrentTimeNanos: () => 1_767_225_600_000_000_000n,
      currentTimeNanos: Effect.succeed(1_767_225_600_000_000_000n),
      sleep: () => Effect.void
    }
    const run = () =>
      Effect.runSync(
        Effect.all([next, next, next]).pipe(
          Effect.provide(Ids.Ids.layer),
          Effect.withRandom(Random.make("seed")),
          Effect.withClock(fixed)
        )
      )
    const first = run()
    expect(run()).toStrictEqual(first)
    expect(first[0]).toMatch(/^019b76da-/)
  })
})
