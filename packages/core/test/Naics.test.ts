import { describe, expect, it } from "@effect/vitest"
import { Naics } from "../src/index.js"

describe("Naics.predict", () => {
  it.each([
    ["Pacific Tax Preparation Services", "541213"],
    ["Bright Futures Child Care Center", "624410"],
    ["Metro Trucking LLC", "484110"],
    ["Golden Dragon Chinese Restaurant", "722513"]
  ])("puts the obvious industry of %s first", (name, code) => {
    expect(Naics.predict([name])[0]!.code).toBe(code)
  })

  it("returns six-digit codes with official titles and confidences in (0, 1], best first", () => {
    const p = Naics.predict(["Smith & Sons Plumbing Inc"], 5)
    expect(p).toHaveLength(5)
    for (const x of p) {
      expect(x.code).toMatch(/^\d{6}$/)
      expect(x.confidence).toBeGreaterThan(0)
      expect(x.confidence).toBeLessThanOrEqual(1)
    }
    expect(p.map((x) => x.confidence)).toEqual([...p.map((x) => x.confidence)].sort((a, b) => b - a))
    expect(p.some((x) => /Plumbing/.test(x.title))).toBe(true)
  })

  it("ignores legal forms and function words; nothing to go on gives nothing", () => {
    expect(Naics.predict(["LLC"])).toEqual([])
    expect(Naics.predict(["The Inc"])).toEqual([])
    expect(Naics.predict(["Tax Preparation LLC"])).toEqual(Naics.predict(["Tax Preparation"]))
  })
})
