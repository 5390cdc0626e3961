import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { Engine, Registry, Synthetic, UsAddress } from "../src/index.js"

describe("Registry records", () => {
  it("accept a record with only id and name, filling the rest", () => {
    const r = Either.getOrThrow(Registry.decodeRecord({ id: "0192f3a4-5b6c-7d8e-9f01-23456789abcd", name: "Acme" }))
    expect(r).toMatchObject({
      name: "Acme",
      address: null,
      addresses: [],
      business_officers: [],
      ein: null,
      revenue: null
    })
  })

  it("accept incomplete nested parts (addresses without ids, officers as names)", () => {
    const r = Either.getOrThrow(Registry.decodeRecord({
      id: "0192f3a4-5b6c-7d8e-9f01-23456789abcd",
      name: "Acme",
      addresses: [{ street: "1 Main St", city: "Springfield", state: "IL", zip: null }],
      business_officers: ["Jane Doe"],
      registrations: [{ state: "IL", registered_agent: { name: "CT Corporation System" } }],
      phone_numbers: null
    }))
    expect(r.addresses[0]).toMatchObject({ street: "1 Main St", city: "Springfield", deliverable: false, sources: [] })
    expect(r.addresses[0]!.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(r.business_officers[0]).toStrictEqual({ name: "Jane Doe", titles: [], states: [], sources: [] })
    expect(r.registrations[0]!.registered_agent).toStrictEqual({ name: "CT Corporation System", address: null })
  })

  it("refuse a record without an id or a name with a readable reason", () => {
    const r = Registry.decodeRecord({ name: "Acme" })
    expect(Either.isLeft(r) && r.left).toContain("id")
    expect(Either.isLeft(Registry.decodeRecord({ id: "0192f3a4-5b6c-7d8e-9f01-23456789abcd", name: "" }))).toBe(true)
  })
})

describe("Registry.layerMemory retrieval", () => {
  const records = Synthetic.registry(11, 5000)
  const index = Registry.makeMemoryIndex(records)

  it("finds the record a noisy request names, best first", () => {
    const random = Synthetic.prng(3)
    let found = 0
    for (let i = 0; i < 200; i++) {
      const target = records[random.int(0, records.length - 1)]!
      const req = Synthetic.requestFor(random, target)
      const query = Engine.prepareRequest({ name: req.name, alternatives: [] }, UsAddress.parse(req.address), {
        phone: req.phone_number,
        officers: req.officer_names ?? []
      })
      if (index.search(query, 1)[0]?.business.id === target.id) found++
    }
    expect(found).toBeGreaterThanOrEqual(196)
  })

  it("touches a small fraction of the records per search", () => {
    const random = Synthetic.prng(4)
    let touched = 0
    let compared = 0
    for (let i = 0; i < 100; i++) {
      const req = Synthetic.requestFor(random, records[random.int(0, records.length - 1)]!)
      const e = index.explain(
        Engine.prepareRequest({ name: req.name, alternatives: [] }, UsAddress.parse(req.address), {
          phone: req.phone_number,
          officers: req.officer_names ?? []
        })
      )
      touched += e.touched
      compared += e.compared
      expect(e.compared).toBeLessThanOrEqual(20)
    }
    expect(touched / 100 / records.length).toBeLessThan(0.05)
    expect(compared / 100).toBeLessThanOrEqual(20)
  })

  it("knows the owners of EINs", () => {
    const b = records[42]!
    expect(index.ownerOfEin(b.ein!.replace("-", ""))).toStrictEqual({ name: b.name })
    expect(index.ownerOfEin("000000000")).toBeUndefined()
  })
})
