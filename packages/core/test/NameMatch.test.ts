import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { NameMatch } from "../src/index.js"

const g = (a: string, b: string, alts: ReadonlyArray<string> = []) =>
  NameMatch.grade({ name: a, alternatives: [] }, { name: b, alternatives: alts })

const businessName = fc.array(
  fc.oneof(
    fc.constantFrom("acme", "widgets", "global", "trading", "north", "star", "bakery", "holdings"),
    fc.stringMatching(/^[A-Za-z]{2,10}$/)
  ),
  { minLength: 1, maxLength: 4 }
).chain((words) => fc.constantFrom("", " Inc", " LLC", ", Ltd.", " Corp").map((form) => words.join(" ") + form))

describe("NameMatch.grade (DECISIONS section 6)", () => {
  it("EXACT: equal after normalisation with equivalent legal forms, or a form on one side only", () => {
    expect(g("Acme Widgets, Inc.", "ACME WIDGETS INCORPORATED")).toBe("EXACT")
    expect(g("Acme Widgets L.L.C.", "acme widgets")).toBe("EXACT")
    expect(g("Smith & Sons", "Smith and Sons")).toBe("EXACT")
    expect(g("Café Rouge", "Cafe Rouge")).toBe("EXACT")
    expect(g("C T Corporation System", "CT Corporation System")).toBe("EXACT")
  })

  it("SIMILAR: typos, abbreviations, word order, a different legal form, an exact alternative name", () => {
    expect(g("Acme Widgest", "Acme Widgets")).toBe("SIMILAR")
    expect(g("Acme Intl", "Acme International")).toBe("SIMILAR")
    expect(g("Widgets Acme", "Acme Widgets")).toBe("SIMILAR")
    expect(g("Acme Widgets Inc", "Acme Widgets LLC")).toBe("SIMILAR")
    expect(g("IBM", "International Business Machines Corp")).toBe("SIMILAR")
    expect(g("Widget World", "Acme Widgets", ["Widget World"])).toBe("SIMILAR")
    expect(g("Acme Inc d/b/a Widget World", "Widget World LLC")).toBe("SIMILAR")
  })

  it("NO_MATCH otherwise, and numbers tell entities apart", () => {
    expect(g("Acme Widgets", "Acme Gadgets")).toBe("NO_MATCH")
    expect(g("First National Bank", "First National Trust")).toBe("NO_MATCH")
    expect(g("Fund III LP", "Fund IV LP")).toBe("NO_MATCH")
    expect(g("", "Acme")).toBe("NO_MATCH")
  })

  it.prop("a name always matches itself EXACT", [businessName], ([name]) => {
    expect(g(name, name)).toBe("EXACT")
  })

  it.prop("grades are symmetric", [businessName, businessName], ([a, b]) => {
    expect(g(a, b)).toBe(g(b, a))
  })
})
