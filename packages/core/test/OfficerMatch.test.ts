import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { OfficerMatch, PersonName } from "../src/index.js"

describe("PersonName.normalize", () => {
  it("removes titles and suffixes, turns LAST, First around, keeps middles apart", () => {
    expect(PersonName.normalize("Dr. John Q. Smith Jr.")).toMatchObject({
      first: "john",
      middles: ["q"],
      last: "smith"
    })
    expect(PersonName.normalize("SMITH, JOHN Q")).toMatchObject({ first: "john", middles: ["q"], last: "smith" })
    expect(PersonName.normalize("John Smith, III")).toMatchObject({ first: "john", last: "smith" })
  })

  it("knows nicknames in both directions", () => {
    expect(PersonName.areNicknames("bob", "robert")).toBe(true)
    expect(PersonName.areNicknames("robert", "bob")).toBe(true)
    expect(PersonName.areNicknames("bob", "alice")).toBe(false)
  })
})

describe("OfficerMatch (DECISIONS section 6)", () => {
  it("EXACT ignores middle names, initials, suffixes and titles", () => {
    expect(OfficerMatch.gradeOne("John Q. Smith", "SMITH, JOHN")).toBe("EXACT")
    expect(OfficerMatch.gradeOne("Dr. Jane Doe, PhD", "Jane Doe")).toBe("EXACT")
  })

  it("SIMILAR: nickname, initial, swapped order, small typo", () => {
    expect(OfficerMatch.gradeOne("Bob Smith", "Robert Smith")).toBe("SIMILAR")
    expect(OfficerMatch.gradeOne("J. Smith", "John Smith")).toBe("SIMILAR")
    expect(OfficerMatch.gradeOne("Smith John", "John Smith")).toBe("SIMILAR")
    expect(OfficerMatch.gradeOne("Jon Smith", "John Smith")).toBe("SIMILAR")
    expect(OfficerMatch.gradeOne("John Smyth", "John Smith")).toBe("SIMILAR")
    expect(OfficerMatch.gradeOne("John Brown", "John Smith")).toBe("NO_MATCH")
    expect(OfficerMatch.gradeOne("John Smithe", "John Smith")).toBe("SIMILAR")
  })

  it("best over all pairs; null when no names were submitted; companies as business names", () => {
    expect(OfficerMatch.grade(["Alice Jones", "Bob Smith"], ["Robert Smith", "Carol King"])).toBe("SIMILAR")
    expect(OfficerMatch.grade([], ["Robert Smith"])).toBeNull()
    expect(OfficerMatch.grade(["Alice Jones"], [])).toBe("NO_MATCH")
    expect(OfficerMatch.grade(["CT Corporation System"], ["C T CORPORATION SYSTEM"])).toBe("EXACT")
  })

  const person = fc.tuple(
    fc.constantFrom("John", "Jane", "Robert", "Maria", "Wei", "Ahmed"),
    fc.constantFrom("", " Q.", " Lee"),
    fc.constantFrom("Smith", "Garcia", "Okafor", "Nguyen")
  ).map(([f, m, l]) => `${f}${m} ${l}`)

  it.prop("a name matches itself EXACT and grades are symmetric", [person, person], ([a, b]) => {
    expect(OfficerMatch.gradeOne(a, a)).toBe("EXACT")
    expect(OfficerMatch.gradeOne(a, b)).toBe(OfficerMatch.gradeOne(b, a))
  })
})
