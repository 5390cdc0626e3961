import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { Watchlist } from "../src/index.js"

const screener = Watchlist.makeScreener(Watchlist.OFAC_SDN, Watchlist.ofacSdnEntries())

describe("Watchlist screening against the OFAC SDN list", () => {
  it("finds listed entities by primary name and alias, with legal forms ignored", () => {
    const hits = screener.screen([{ name: "Banco Nacional de Cuba S.A.", kind: "business" }])
    expect(hits[0]).toMatchObject({
      list: "OFAC SDN",
      entity_id: "306",
      name: "BANCO NACIONAL DE CUBA",
      matched: "Banco Nacional de Cuba S.A.",
      programs: ["CUBA"]
    })
    expect(hits[0]!.score).toBe(1)
    expect(screener.screen([{ name: "National Bank of Cuba", kind: "business" }])[0]?.entity_id).toBe("306")
  })

  it("finds listed people in any name order and with typos", () => {
    expect(screener.screen([{ name: "Osama bin Laden", kind: "person" }])[0]?.entity_id).toBe("6365")
    expect(screener.screen([{ name: "Usama Bin Ladin", kind: "person" }]).map((h) => h.entity_id)).toContain("6365")
  })

  it("does not hit ordinary names", () => {
    expect(screener.screen([{ name: "Acme Widgets Inc", kind: "business" }, { name: "John Smith", kind: "person" }]))
      .toStrictEqual([])
  })

  const words = fc.array(fc.stringMatching(/^[a-z]{2,9}$/), { minLength: 1, maxLength: 4 })
  it.prop("the score is 1 for the same tokens and symmetric", [words, words], ([a, b]) => {
    expect(Watchlist.score(a, a)).toBe(1)
    expect(Watchlist.score(a, b)).toBeCloseTo(Watchlist.score(b, a), 10)
  })
})
