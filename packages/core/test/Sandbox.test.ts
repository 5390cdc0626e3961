import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Engine, Registry, Sandbox, Synthetic } from "../src/index.js"

describe("the sandbox fixture registry", () => {
  const records = Sandbox.registry()

  it("holds at least 100 businesses with complete records", () => {
    expect(records.length).toBeGreaterThanOrEqual(100)
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length)
    for (const r of records) {
      expect(r.registrations.length, r.name).toBeGreaterThan(0)
      for (const g of r.registrations) {
        expect(g.registered_agent?.name, r.name).toBeTruthy()
        expect(g.standing, r.name).toMatch(/^(GOOD|BAD|UNKNOWN)$/)
        expect(g.officers.length, r.name).toBeGreaterThan(0)
      }
      expect(r.addresses.length).toBeGreaterThanOrEqual(2)
      expect(r.addresses.every((a) => a.sources.length > 0)).toBe(true)
      expect(r.website).toMatch(/^https:\/\//)
      expect(r.ein).toMatch(/^\d{2}-\d{7}$/)
      expect(r.phone_numbers.length).toBeGreaterThan(0)
      expect(r.reviews.length).toBeGreaterThan(0)
      expect(r.directory_listings.length).toBeGreaterThan(0)
      expect(r.predicted_naics.length).toBeGreaterThan(0)
    }
    expect(records.filter((r) => r.watchlist_hits.length > 0).length).toBeGreaterThanOrEqual(5)
    expect(records.some((r) => r.registrations.some((g) => g.status === "INACTIVE"))).toBe(true)
    expect(records.some((r) => r.registrations.some((g) => g.standing === "BAD"))).toBe(true)
  })

  it.effect("every business is found by its own name and address", () =>
    Effect.gen(function*() {
      const engine = yield* Effect.provide(
        Engine.Engine,
        Engine.Engine.layerDefaults({ baseUrl: "http://sandbox.test" }, Registry.Registry.layerMemory(records))
      )
      const random = Synthetic.prng(1)
      let found = 0
      for (const r of records) {
        const request = { ...Synthetic.requestFor(random, r), name: r.name }
        const v = yield* engine.verify({ request })
        if (v.business?.id === r.id) found++
      }
      expect(found).toBe(records.length)
    }))
})
