import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Tin } from "../src/index.js"

const authority = Layer.succeed(
  Tin.TinAuthority,
  Tin.TinAuthority.make((tin) => Effect.succeed(tin === "987654321" ? { name: "Other Co" } : undefined))
)

describe("Tin rules", () => {
  it("takes nine digits after removing dashes and spaces", () => {
    expect(Tin.digits("12-3456789")).toBe("123456789")
    expect(Tin.digits("123 45 6789")).toBe("123456789")
    expect(Tin.digits("12345678")).toBeUndefined()
  })

  it("checks EIN prefixes against the IRS list and SSNs against the SSA rules", () => {
    expect(Tin.isValidEin("123456789")).toBe(true)
    expect(Tin.isValidEin("073456789")).toBe(false)
    expect(Tin.isValidSsn("123456789")).toBe(true)
    for (const bad of ["000456789", "666456789", "900456789", "123006789", "123450000"]) {
      expect(Tin.isValidSsn(bad)).toBe(false)
    }
  })

  it("types a TIN as SSN, EIN or UNKNOWN", () => {
    expect(Tin.kind("12-3456789")).toBe("EIN")
    expect(Tin.kind("123-45-6789")).toBe("SSN")
    expect(Tin.kind("073456789")).toBe("SSN")
    expect(Tin.kind("912345678")).toBe("EIN")
    expect(Tin.kind("123456789")).toBe("UNKNOWN")
  })
})

describe("Tin.verify (DECISIONS section 6)", () => {
  it.effect("matched when the TIN is the business's EIN", () =>
    Effect.gen(function*() {
      const r = yield* Tin.verify("12-3456789", { name: "Acme", ein: "123456789" })
      expect(r).toStrictEqual({
        tin_matched: true,
        tin_match_type: "EIN",
        tin_potential_match: null,
        warning: undefined
      })
    }).pipe(Effect.provide(authority)))

  it.effect("a real TIN of another entity is a mismatch naming it", () =>
    Effect.gen(function*() {
      const r = yield* Tin.verify("98-7654321", { name: "Acme", ein: "123456789" })
      expect(r).toMatchObject({ tin_matched: false, tin_match_type: "EIN", tin_potential_match: "Other Co" })
    }).pipe(Effect.provide(authority)))

  it.effect("an unknown TIN does not match; no TIN gives nulls", () =>
    Effect.gen(function*() {
      expect(yield* Tin.verify("123-45-6789", { name: "Acme", ein: "121212121" })).toMatchObject({
        tin_matched: false,
        tin_match_type: "SSN",
        tin_potential_match: null
      })
      expect(yield* Tin.verify(undefined, undefined)).toMatchObject({ tin_matched: null, tin_match_type: null })
    }).pipe(Effect.provide(authority)))

  it.effect("authority down: null plus the warning", () =>
    Effect.gen(function*() {
      const r = yield* Tin.verify("12-3456789", { name: "Acme", ein: "123456789" })
      expect(r).toMatchObject({ tin_matched: null, warning: "TIN validation is unavailable." })
    }).pipe(Effect.provide(Tin.TinAuthority.layerUnavailable)))
})
