import { describe, expect, it } from "@effect/vitest"
import { UsAddress } from "../src/index.js"

describe("UsAddress.parse", () => {
  it("parses and standardises a full line to USPS Publication 28", () => {
    const a = UsAddress.parse("2400 North Halsted Street Apartment 3B, Chicago, Illinois 60614-1234")
    expect(a).toMatchObject({
      number: "2400",
      predirectional: "N",
      streetName: "HALSTED",
      suffix: "ST",
      unitType: "APT",
      unitId: "3B",
      city: "CHICAGO",
      state: "IL",
      zip5: "60614",
      zip4: "1234",
      validation: "FULL"
    })
    expect(UsAddress.streetLine(a)).toBe("2400 N HALSTED ST APT 3B")
  })

  it.each([
    ["350 Fifth Avenue Suite 3300 New York NY 10118", "350 5TH AVE STE 3300"],
    ["9 N Michigan Ave #1200, Chicago, IL 60602", "9 N MICHIGAN AVE # 1200"],
    ["100 North Ave, Atlanta GA 30308", "100 NORTH AVE"],
    ["123 Main St NW, Washington, DC 20001", "123 MAIN ST NW"],
    ["8938-40 S. Cottage Grove, Chicago, IL", "8938 S COTTAGE GRV"],
    ["744 North Monticello Ave. 1st Floor, Chicago, IL 60624", "744 N MONTICELLO AVE FL 1"],
    ["747 9th ave.  between 50th and 51st sts., new york", "747 9TH AVE"],
    ["PO Box 123, Anytown, NY 10001", "PO BOX 123"],
    ["1 Infinite Loop, Cupertino, CA 95014", "1 INFINITE LOOP"]
  ])("%s -> %s", (line, street) => {
    expect(UsAddress.streetLine(UsAddress.parse(line))).toBe(street)
  })

  it("reads the city without commas from the ZIP table's cities of the state", () => {
    expect(UsAddress.parse("1 Infinite Loop Cupertino CA 95014")).toMatchObject({
      city: "CUPERTINO",
      validation: "FULL"
    })
    expect(UsAddress.parse("43 W 65th St, New York")).toMatchObject({ city: "NEW YORK", state: "NY" })
  })

  it("validation level: FULL, PARTIAL, INVALID (DECISIONS section 6)", () => {
    expect(UsAddress.parse("123 Main St, Springfield, IL 62701").validation).toBe("FULL")
    expect(UsAddress.parse("123 Main St, Springfield, IL").validation).toBe("PARTIAL")
    expect(UsAddress.parse("Chicago, IL").validation).toBe("PARTIAL")
    expect(UsAddress.parse("12 Main").validation).toBe("INVALID")
  })

  it("checks ZIP and state consistency, and fills city and state from the ZIP", () => {
    const wrong = UsAddress.parse("123 Main St, Springfield, IL 90210")
    expect(wrong.consistent).toBe(false)
    expect(wrong.validation).toBe("PARTIAL")
    const inferred = UsAddress.parse("742 Evergreen Terrace 62701")
    expect(inferred).toMatchObject({ city: "SPRINGFIELD", state: "IL", inferred: true, validation: "FULL" })
  })
})
