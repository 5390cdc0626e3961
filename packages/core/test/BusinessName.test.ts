import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { BusinessName } from "../src/index.js"

describe("BusinessName.normalize", () => {
  it("folds case, punctuation, diacritics and &/and", () => {
    expect(BusinessName.normalize("Müller & Söhne").key).toBe("muller and sohne")
    expect(BusinessName.normalize("MÜLLER AND SÖHNE").key).toBe("muller and sohne")
    expect(BusinessName.normalize("McDonald's").key).toBe("mcdonalds")
    expect(BusinessName.normalize("Ｆｕｌｌｗｉｄｔｈ Ｃｏｒｐ").key).toBe("fullwidth")
    expect(BusinessName.normalize("Газпром").key).toBe("gazprom")
  })

  it("turns number words into digits", () => {
    expect(BusinessName.normalize("Second Street Grill").key).toBe("2nd street grill")
    expect(BusinessName.normalize("Brigade Forty-Four").key).toBe("brigade 44")
  })

  it.each([
    ["Acme Widgets, Inc.", "Inc"],
    ["Acme Widgets Incorporated", "Inc"],
    ["Acme Widgets L.L.C.", "LLC"],
    ["Acme Widgets Limited Liability Company", "LLC"],
    ["Acme Widgets Corp", "corporation"],
    ["Acme Widgets Co.", "company"],
    ["Acme Widgets Ltd", "Ltd"],
    ["Acme Widgets LP", "LP"],
    ["Acme Widgets LLP", "LLP"],
    ["Acme Widgets PLLC", "PLLC"],
    ["Smith Dental P.C.", "PC"],
    ["Müller GmbH", "GmbH"],
    ["Acme S.A.", "SA"],
    ["OOO Romashka", "OOO"],
    ["SiemensAG", "AG"]
  ])("extracts the legal form of %s into its class", (raw, cls) => {
    const n = BusinessName.normalize(raw)
    expect(n.legalForms).toContain(cls)
    expect(n.tokens.length).toBeGreaterThan(0)
  })

  it("keeps descriptors that are not legal forms", () => {
    expect(BusinessName.normalize("First National Bank").key).toBe("1st national bank")
    expect(BusinessName.normalize("Gates Foundation").key).toBe("gates foundation")
  })

  it("never strips a name down to nothing, and drops leading/trailing articles", () => {
    expect(BusinessName.normalize("Limited").key).toBe("limited")
    expect(BusinessName.normalize("The Apple Pan").key).toBe("apple pan")
    expect(BusinessName.normalize("apple pan  the").key).toBe("apple pan")
  })

  it("splits d/b/a names and drops parenthetical qualifiers in variants", () => {
    expect(BusinessName.splitNames("Acme Inc d/b/a Widget World")).toStrictEqual(["Acme Inc", "Widget World"])
    expect(BusinessName.variants("Spago (Los Angeles)").map((n) => n.key)).toStrictEqual(["spago los angeles", "spago"])
  })

  it.prop("is idempotent on its key", [fc.string({ minLength: 1, maxLength: 40 })], ([s]) => {
    const once = BusinessName.normalize(s)
    if (once.tokens.length > 0) expect(BusinessName.normalize(once.key).tokens.join("")).toBe(once.tokens.join(""))
  })
})
