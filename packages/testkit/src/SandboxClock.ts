/**
 * A clock for sandbox hosts that a test moves forward: `advance` jumps time (a retry due in five
 * minutes is due at once), while sleeping still takes real time, so a host's polling loops keep
 * running. `frozen` clocks start at a fixed instant and move only when told (byte-identical output
 * across runs); running clocks follow the real clock plus what was advanced.
 */
import { Clock, Duration, Effect, Layer } from "effect"

/** A movable clock. */
export interface SandboxClock {
  readonly clock: Clock.Clock
  /** The clock's time in milliseconds since the epoch. */
  readonly now: () => number
  /** Moves time forward. */
  readonly advance: (by: Duration.DurationInput) => void
  /** A layer that makes this the clock of everything built on it. */
  readonly layer: Layer.Layer<never>
}

/** A fixed instant sandbox clocks start at by default: 2026-01-01T00:00:00Z. */
export const EPOCH = Date.UTC(2026, 0, 1)

/** Makes a clock: frozen at `start` (default `EPOCH`), or running with the real clock. */
export const make = (options: { readonly frozen?: boolean; readonly start?: number } = {}): SandboxClock => {
  const real = Clock.make()
  let offset = 0
  const frozen = options.frozen ?? true
  const start = options.start ?? EPOCH
  const now = () => (frozen ? start : Date.now()) + offset
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: now,
    currentTimeMillis: Effect.sync(now),
    unsafeCurrentTimeNanos: () => BigInt(Math.round(now() * 1e6)),
    currentTimeNanos: Effect.sync(() => BigInt(Math.round(now() * 1e6))),
    sleep: (d) => real.sleep(d)
  }
  return { clock, now, advance: (by) => void (offset += Duration.toMillis(by)), layer: Layer.setClock(clock) }
}
