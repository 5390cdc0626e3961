import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { dumps, floatRepr, loads, PyFloat, PyInt } from "../src/internal/PyJson.js"

describe("PyJson", () => {
  it("writes floats as Python's repr", () => {
    expect([1e16, 1e15, 1e-5, 1e-4, -0, 0, 1.5e300, 5e-324, 0.1 + 0.2, 100, -2.5].map(floatRepr)).toStrictEqual([
      "1e+16",
      "1000000000000000.0",
      "1e-05",
      "0.0001",
      "-0.0",
      "0.0",
      "1.5e+300",
      "5e-324",
      "0.30000000000000004",
      "100.0",
      "-2.5"
    ])
  })

  it("keeps integer digits and Python dict order", () => {
    const r = loads("{\"b\":1,\"2\":123456789012345678901234567890,\"b\":-0,\"f\":1E2}")
    expect(r._tag).toBe("Ok")
    if (r._tag === "Ok") {
      expect(dumps(r.value)).toBe("{\"b\":0,\"2\":123456789012345678901234567890,\"f\":100.0}")
    }
  })

  it("escapes like json.dumps(ensure_ascii=False)", () => {
    expect(dumps("a\"\\\n\u0001\u007f\u00e9\u{1F600}")).toBe("\"a\\\"\\\\\\n\\u0001\u007f\u00e9\u{1F600}\"")
    expect(dumps("\ud800x")).toBe("\"\\ud800x\"")
  })

  it.prop("reads what JSON.stringify writes", [fc.jsonValue()], ([v]) => {
    const r = loads(JSON.stringify(v))
    expect(r._tag).toBe("Ok")
    if (r._tag === "Ok") {
      const plain = (x: unknown): unknown =>
        x instanceof PyInt
          ? Number(x.text)
          : x instanceof PyFloat
          ? x.value
          : Array.isArray(x)
          ? x.map(plain)
          : x instanceof Map
          ? Object.fromEntries([...x].map(([k, y]) => [k, plain(y)]))
          : x
      expect(JSON.stringify(plain(r.value))).toBe(JSON.stringify(v))
    }
  })
})
