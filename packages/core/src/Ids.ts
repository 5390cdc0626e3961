/**
 * Ids (DECISIONS section 7: UUID version 7, time-ordered). Time comes from Effect's `Clock` and the
 * random bits from Effect's `Random`, so a seeded `Random` and a `TestClock` make ids deterministic.
 */
import { Clock, Context, Effect, Layer, Random } from "effect"

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0")

/** A UUIDv7 from a millisecond time and a source of random bits (`r(n)` returns an integer below 2^n). */
export const uuidv7 = (millis: number, r: (bits: number) => number): string => {
  const time = hex(Math.floor(millis), 12).slice(-12)
  const randA = hex(r(12), 3)
  const variant = hex(0x8000 | r(14), 4)
  const randB = hex(r(16), 4) + hex(r(16), 4) + hex(r(16), 4)
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randA}-${variant}-${randB}`
}

/** Makes ids. */
export class Ids extends Context.Tag("@osiris/core/Ids")<Ids, {
  /** A new UUIDv7. */
  readonly next: Effect.Effect<string>
}>() {
  /**
   * UUIDv7 ids from Effect's Clock and Random services (seed Random for deterministic ids). Within
   * one millisecond the 12 bits after the version count up from a random start (RFC 9562, method 1),
   * so the ids one process makes are strictly increasing.
   */
  static readonly layer = Layer.sync(Ids, () => {
    let lastMillis = -1
    let counter = 0
    return {
      next: Effect.gen(function*() {
        let millis = yield* Clock.currentTimeMillis
        if (millis < lastMillis) millis = lastMillis
        if (millis === lastMillis) {
          counter++
          if (counter > 0xfff) {
            millis = lastMillis + 1
            counter = yield* Random.nextIntBetween(0, 0x800)
          }
        } else {
          counter = yield* Random.nextIntBetween(0, 0x800)
        }
        lastMillis = millis
        const bits: Array<number> = []
        for (let i = 0; i < 4; i++) bits.push(yield* Random.nextIntBetween(0, 0x10000))
        let k = 0
        const c = counter
        return uuidv7(millis, (n) => (n === 12 ? c : bits[k++]! & ((1 << n) - 1)))
      })
    }
  })
}
