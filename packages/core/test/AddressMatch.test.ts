import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { AddressMatch, UsAddress } from "../src/index.js"

const g = (a: string, b: string) => AddressMatch.grade(UsAddress.parse(a), UsAddress.parse(b))

describe("AddressMatch.grade (DECISIONS section 6)", () => {
  it("EXACT: same standardised number, street, suffix, directionals and ZIP5 or city+state", () => {
    expect(g("123 North Main Street, Springfield, IL 62701", "123 N Main St, Springfield, IL 62701")).toBe("EXACT")
    expect(g("123 N Main St, Springfield, IL", "123 N Main St Ste 5, Springfield, IL 62701")).toBe("EXACT")
  })

  it("SIMILAR: same number and a near street, or city/ZIP missing", () => {
    expect(g("123 N Mian St, Springfield, IL 62701", "123 N Main St, Springfield, IL 62701")).toBe("SIMILAR")
    expect(g("123 N Main St", "123 N Main St, Springfield, IL 62701")).toBe("SIMILAR")
    expect(g("123 Main Ave, Springfield, IL", "123 Main St, Springfield, IL")).toBe("SIMILAR")
  })

  it("CITY, STATE, NO_MATCH", () => {
    expect(g("9 Elm St, Springfield, IL 62701", "123 Main St, Springfield, IL 62701")).toBe("CITY")
    expect(g("9 Elm St, Chicago, IL", "123 Main St, Springfield, IL")).toBe("STATE")
    expect(g("9 Elm St, Boston, MA", "123 Main St, Springfield, IL")).toBe("NO_MATCH")
    expect(g("123 Main St, Springfield, MA", "123 Main St, Springfield, IL")).toBe("NO_MATCH")
  })

  it("takes the best over all of a business's addresses", () => {
    const input = UsAddress.parse("123 Main St, Springfield, IL 62701")
    expect(
      AddressMatch.gradeBest(input, [
        UsAddress.parse("9 Elm St, Chicago, IL"),
        UsAddress.parse("123 Main St, Springfield, IL 62701")
      ])
    )
      .toBe("EXACT")
    expect(AddressMatch.gradeBest(input, [])).toBe("NO_MATCH")
  })

  const line = fc.tuple(
    fc.constantFrom("12", "123", "4500"),
    fc.constantFrom("N ", "", "S "),
    fc.constantFrom("Main", "Elm", "Oak", "Maple"),
    fc.constantFrom("St", "Street", "Ave", "Rd"),
    fc.constantFrom(", Springfield, IL 62701", ", Chicago, IL", ", Boston, MA 02108", "")
  ).map(([n, d, s, t, rest]) => `${n} ${d}${s} ${t}${rest}`)

  it.prop("an address always matches itself, and the grade is symmetric", [line, line], ([a, b]) => {
    expect(["EXACT", "SIMILAR"]).toContain(g(a, a))
    expect(g(a, b)).toBe(g(b, a))
  })
})
