import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import * as fc from "fast-check"
import { Formats } from "../src/index.js"

const decode = <A, I>(s: Schema.Schema<A, I>) => (u: unknown) => Either.isRight(Schema.decodeUnknownEither(s)(u))

describe("Formats", () => {
  it("timestamps have six fractional digits and no zone designator", () => {
    const ok = decode(Formats.Timestamp)
    expect(ok("2026-01-31T12:34:56.789012")).toBe(true)
    expect(ok("2026-01-31T12:34:56.789012Z")).toBe(false)
    expect(ok("2026-01-31T12:34:56+00:00")).toBe(false)
    expect(ok("2026-01-31T12:34:56")).toBe(false)
    expect(ok("2026-02-30T12:34:56.000000")).toBe(false)
    expect(ok("2026-01-31T24:00:00.000000")).toBe(false)
  })

  it.prop(
    "timestampFromMillis and timestampToMillis are inverse",
    [fc.integer({ min: 0, max: 253402300799999 })],
    ([ms]) => {
      const t = Formats.timestampFromMillis(ms)
      expect(decode(Formats.Timestamp)(t)).toBe(true)
      expect(Formats.timestampToMillis(t)).toBe(ms)
    }
  )

  it("dates are calendar dates", () => {
    const ok = decode(Formats.CalendarDate)
    expect(ok("2024-02-29")).toBe(true)
    expect(ok("2023-02-29")).toBe(false)
    expect(ok("2024-2-9")).toBe(false)
  })

  it("URL fields are 1 to 2083 characters", () => {
    const ok = decode(Formats.UrlString)
    expect(ok("")).toBe(false)
    expect(ok("h".repeat(2083))).toBe(true)
    expect(ok("h".repeat(2084))).toBe(false)
  })

  it("ids are UUIDs", () => {
    expect(decode(Formats.SearchId)("0192f3a4-5b6c-7d8e-9f01-23456789abcd")).toBe(true)
    expect(decode(Formats.SearchId)("not-a-uuid")).toBe(false)
  })
})
