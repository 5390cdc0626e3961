import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { Scoring } from "../src/index.js"

const base: Scoring.Indicators = {
  found: true,
  name: "EXACT",
  address: "EXACT",
  validation: "FULL",
  tinMatched: null,
  tinSubmitted: false,
  tinPotentialMatch: false,
  officer: null,
  website: null,
  watchlistTopScore: null,
  inactiveRegistration: false,
  cmra: false
}

describe("Scoring", () => {
  it("rates A >= 85, B >= 70, C >= 50, else F", () => {
    expect([100, 85, 84, 70, 69, 50, 49, 0].map(Scoring.rating)).toStrictEqual(["A", "A", "B", "B", "C", "C", "F", "F"])
  })

  it("verifies an EXACT/EXACT match and scores it", () => {
    const r = Scoring.evaluate(base)
    expect(r.verified).toBe(true)
    expect(r.scores).toStrictEqual([{ type: "KYB", score: 85, rating: "A" }, { type: "RISK", score: 100, rating: "A" }])
  })

  it("verifies SIMILAR/SIMILAR, not a TIN mismatch, not a weak address, not without a business", () => {
    expect(Scoring.evaluate({ ...base, name: "SIMILAR", address: "SIMILAR" }).verified).toBe(true)
    expect(Scoring.evaluate({ ...base, tinMatched: false, tinSubmitted: true }).verified).toBe(false)
    expect(Scoring.evaluate({ ...base, address: "CITY" }).verified).toBe(false)
    expect(Scoring.evaluate({ ...base, found: false }).verified).toBe(false)
  })

  it("lowers RISK for watchlist hits and TIN problems", () => {
    const r = Scoring.evaluate({
      ...base,
      watchlistTopScore: 0.97,
      tinMatched: false,
      tinSubmitted: true,
      tinPotentialMatch: true
    })
    expect(r.scores[1]).toStrictEqual({ type: "RISK", score: 0, rating: "F" })
  })

  it.effect("reads the policy from configuration", () =>
    Effect.gen(function*() {
      const scoring = yield* Scoring.Scoring
      expect(scoring.policy).toStrictEqual({ verifiedRatings: ["A"], watchlistBlocksVerified: true })
      expect(scoring.evaluate({ ...base, watchlistTopScore: 0.92 }).verified).toBe(false)
      expect(scoring.evaluate({ ...base, name: "SIMILAR", address: "SIMILAR" }).verified).toBe(false)
    }).pipe(Effect.provide(
      Scoring.Scoring.layerConfig.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(
        new Map([["OSIRIS_VERIFIED_RATINGS", "A"], ["OSIRIS_WATCHLIST_BLOCKS_VERIFIED", "true"]])
      ))))
    )))
})
