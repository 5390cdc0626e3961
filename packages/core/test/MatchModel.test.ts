import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as fc from "fast-check"
import { Engine, MatchModel, Registry, UsAddress } from "../src/index.js"

const prepared = (name: string, address: string, phone?: string) =>
  Engine.prepareRequest({ name, alternatives: [] }, UsAddress.parse(address), { phone, officers: [] })

describe("MatchModel", () => {
  it("compares name and street jointly, and the other fields apart", () => {
    const c = MatchModel.compare(
      prepared("Acme Widgets Inc", "123 N Main St, Springfield, IL 62701", "217-555-0123"),
      prepared("ACME WIDGETS", "123 North Main Street, Springfield, IL 62701", "(217) 555-0123")
    )
    expect(c).toMatchObject({ identity: "exact/exact", area: "zip", phone: "same" })
    const neighbour = MatchModel.compare(
      prepared("Bertolinis", "3570 Las Vegas Blvd S, Las Vegas"),
      prepared("Palace Court", "3570 Las Vegas Blvd S, Las Vegas")
    )
    expect(neighbour.identity).toBe("low/exact")
    expect(MatchModel.eligible(neighbour)).toBe(false)
  })

  it("the shipped weights rank better evidence higher, and calibrate to a probability", () => {
    const p = (c: MatchModel.Comparison) => MatchModel.probability(c)
    expect(p({ identity: "exact/exact", phone: "same" })).toBeGreaterThan(0.99)
    expect(p({ identity: "low/different", phone: "different" })).toBeLessThan(0.01)
    expect(p({ identity: "high/exact" })).toBeGreaterThan(p({ identity: "partial/exact" }))
    expect(p({ identity: "exact/exact" })).toBeGreaterThan(p({ identity: "exact/near" }))
  })

  const name = fc.constantFrom(...MatchModel.levels.identity.map((l) => l.split("/")[0]!))
  const street = fc.constantFrom("exact", "same", "near", "block", "different")
  const pairs = fc.array(
    fc.record({ n: name, s: street, match: fc.boolean() }).map(({ match, n, s }) => ({
      comparison: { identity: `${n}/${s}` } as MatchModel.Comparison,
      match
    })),
    { minLength: 5, maxLength: 200 }
  )
  const names = ["low", "partial", "medium", "high", "exact"] as const
  const streets = ["different", "block", "near", "same", "exact"] as const

  it.prop("estimated weights are strictly monotone in name and in street, whatever the data", [pairs], ([data]) => {
    const w = MatchModel.estimate(data)
    const weight = (n: string, s: string) =>
      MatchModel.logBayesFactor({ identity: `${n}/${s}` } as MatchModel.Comparison, w)
    for (const s of streets) {
      for (let i = 1; i < names.length; i++) expect(weight(names[i]!, s)).toBeGreaterThan(weight(names[i - 1]!, s))
    }
    for (const n of names) {
      for (let i = 1; i < streets.length; i++) {
        expect(weight(n, streets[i]!)).toBeGreaterThan(weight(n, streets[i - 1]!))
      }
    }
    expect(w.prior).toBeGreaterThan(0)
    expect(w.prior).toBeLessThan(1)
  })

  it("ignores fields a side does not have", () => {
    const r = Registry.prepareRecord(
      Either.getOrThrow(Registry.decodeRecord({ id: "0192f3a4-5b6c-7d8e-9f01-000000000001", name: "Acme" }))
    )
    const c = MatchModel.compare(prepared("Acme", "123 Main St, Springfield, IL", "217-555-0123"), r)
    expect(c).toStrictEqual({ name: "exact", identity: "exact/none" })
  })
})
