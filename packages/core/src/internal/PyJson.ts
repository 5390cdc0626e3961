/**
 * JSON read and written the way CPython's `json` module does it, so validation errors can be
 * byte-for-byte what a FastAPI server answers: decode errors carry the module's message and a
 * position counted in code points, objects keep first-insertion key order with the last value,
 * integers keep every digit, and floats are written with Python's `repr`.
 */

/** A JSON integer, kept as its canonical decimal text (Python ints are unbounded). */
export class PyInt {
  constructor(readonly text: string) {}
}

/** A JSON number with a fraction or exponent (a Python float). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A decoded JSON value. Objects are Maps so key order is insertion order, as in a Python dict. */
export type PyValue =
  | null
  | boolean
  | string
  | PyInt
  | PyFloat
  | ReadonlyArray<PyValue>
  | ReadonlyMap<string, PyValue>

/** The `json.JSONDecodeError` of CPython: message and position in code points. */
export interface DecodeError {
  readonly _tag: "DecodeError"
  readonly msg: string
  readonly pos: number
}

/** Input that CPython's `json.loads` refuses with something other than a JSONDecodeError. */
export interface Unreadable {
  readonly _tag: "Unreadable"
  readonly reason: string
}

/** Result of `loads`. */
export type LoadResult =
  | { readonly _tag: "Ok"; readonly value: PyValue }
  | DecodeError
  | Unreadable

/** Nesting deeper than this is refused as CPython's RecursionError would be (its limit is ~1000 frames). */
export const MAX_DEPTH = 900

/** CPython refuses integer literals longer than this (`sys.get_int_max_str_digits`). */
export const MAX_INT_DIGITS = 4300

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })
const utf16le = new TextDecoder("utf-16le", { fatal: true, ignoreBOM: false })
const utf16be = new TextDecoder("utf-16be", { fatal: true, ignoreBOM: false })

/** Bytes to text as `json.loads(bytes)` does (`json.detect_encoding`); undefined when not decodable. */
export const decodeBytes = (b: Uint8Array): string | undefined => {
  try {
    if (
      (b[0] === 0x00 && b[1] === 0x00 && b[2] === 0xfe && b[3] === 0xff) ||
      (b[0] === 0xff && b[1] === 0xfe && b[2] === 0x00 && b[3] === 0x00)
    ) return undefined // UTF-32: no decoder here; refused like an undecodable body
    if (b[0] === 0xfe && b[1] === 0xff) return utf16be.decode(b)
    if (b[0] === 0xff && b[1] === 0xfe) return utf16le.decode(b)
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return utf8.decode(b) // the decoder drops the BOM
    if (b.length >= 4) {
      if (b[0] === 0) return b[1] ? utf16be.decode(b) : undefined
      if (b[1] === 0) return b[2] || b[3] ? utf16le.decode(b) : undefined
    } else if (b.length === 2) {
      if (b[0] === 0) return utf16be.decode(b)
      if (b[1] === 0) return utf16le.decode(b)
    }
    return utf8.decode(b)
  } catch {
    return undefined
  }
}

const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
const isDigit = (c: number) => c >= 0x30 && c <= 0x39

class Fail {
  constructor(readonly error: DecodeError | Unreadable) {}
}

/** Raised where CPython's scanner raises StopIteration(idx): the caller reports "Expecting value". */
class Stop {
  constructor(readonly idx: number) {}
}

/** Code-point position of a UTF-16 index. */
const codePointPos = (s: string, idx: number): number => {
  let n = 0
  for (let i = 0; i < idx && i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}

const hexValue = (c: number): number =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1

class Scanner {
  constructor(readonly s: string) {}

  fail(msg: string, idx: number): never {
    throw new Fail({ _tag: "DecodeError", msg, pos: codePointPos(this.s, idx) })
  }

  /** `scanstring_unicode`: `end` is the index after the opening quote; returns [value, next]. */
  string(end: number): [string, number] {
    const s = this.s
    const len = s.length
    const begin = end - 1
    let out = ""
    for (;;) {
      let next = end
      let c = 0
      for (; next < len; next++) {
        c = s.charCodeAt(next)
        if (c === 0x22 || c === 0x5c) break
        if (c <= 0x1f) this.fail("Invalid control character at", next)
      }
      if (next >= len) this.fail("Unterminated string starting at", begin)
      out += s.slice(end, next)
      next++
      if (c === 0x22) return [out, next]
      if (next === len) this.fail("Unterminated string starting at", begin)
      c = s.charCodeAt(next)
      if (c !== 0x75) {
        end = next + 1
        switch (c) {
          case 0x22:
            out += "\""
            break
          case 0x5c:
            out += "\\"
            break
          case 0x2f:
            out += "/"
            break
          case 0x62:
            out += "\b"
            break
          case 0x66:
            out += "\f"
            break
          case 0x6e:
            out += "\n"
            break
          case 0x72:
            out += "\r"
            break
          case 0x74:
            out += "\t"
            break
          default:
            this.fail("Invalid \\escape", end - 2)
        }
        continue
      }
      next++
      end = next + 4
      if (end >= len) this.fail("Invalid \\uXXXX escape", next - 1)
      let code = 0
      for (; next < end; next++) {
        const d = hexValue(s.charCodeAt(next))
        if (d < 0) this.fail("Invalid \\uXXXX escape", end - 5)
        code = (code << 4) | d
      }
      if (
        code >= 0xd800 && code <= 0xdbff && end + 6 < len &&
        s.charCodeAt(next) === 0x5c && s.charCodeAt(next + 1) === 0x75
      ) {
        next += 2
        end += 6
        let low = 0
        for (; next < end; next++) {
          const d = hexValue(s.charCodeAt(next))
          if (d < 0) this.fail("Invalid \\uXXXX escape", end - 5)
          low = (low << 4) | d
        }
        if (low >= 0xdc00 && low <= 0xdfff) {
          out += String.fromCharCode(code, low)
        } else {
          out += String.fromCharCode(code)
          end -= 6
        }
      } else {
        out += String.fromCharCode(code)
      }
    }
  }

  skipWs(idx: number): number {
    while (idx < this.s.length && isWs(this.s.charCodeAt(idx))) idx++
    return idx
  }

  /** `scan_once_unicode`: returns [value, next] or throws Stop. */
  value(idx: number, depth: number): [PyValue, number] {
    const s = this.s
    const len = s.length
    if (idx >= len) throw new Stop(idx)
    const c = s.charCodeAt(idx)
    switch (c) {
      case 0x22:
        return this.string(idx + 1)
      case 0x7b:
        return this.object(idx + 1, depth + 1)
      case 0x5b:
        return this.array(idx + 1, depth + 1)
      case 0x6e:
        if (s.startsWith("null", idx)) return [null, idx + 4]
        break
      case 0x74:
        if (s.startsWith("true", idx)) return [true, idx + 4]
        break
      case 0x66:
        if (s.startsWith("false", idx)) return [false, idx + 5]
        break
    }
    // NaN, Infinity and -Infinity are accepted by CPython but cannot be written back as JSON
    // (FastAPI would answer 500); here they are refused where the value starts.
    return this.number(idx)
  }

  number(start: number): [PyValue, number] {
    const s = this.s
    const endIdx = s.length - 1
    let idx = start
    if (s.charCodeAt(idx) === 0x2d) {
      idx++
      if (idx > endIdx) throw new Stop(start)
    }
    const first = s.charCodeAt(idx)
    if (first >= 0x31 && first <= 0x39) {
      idx++
      while (idx <= endIdx && isDigit(s.charCodeAt(idx))) idx++
    } else if (first === 0x30) {
      idx++
    } else {
      throw new Stop(start)
    }
    let isFloat = false
    if (idx < endIdx && s.charCodeAt(idx) === 0x2e && isDigit(s.charCodeAt(idx + 1))) {
      isFloat = true
      idx += 2
      while (idx <= endIdx && isDigit(s.charCodeAt(idx))) idx++
    }
    if (idx < endIdx && (s.charCodeAt(idx) === 0x65 || s.charCodeAt(idx) === 0x45)) {
      const eStart = idx
      idx++
      if (idx < endIdx && (s.charCodeAt(idx) === 0x2d || s.charCodeAt(idx) === 0x2b)) idx++
      while (idx <= endIdx && isDigit(s.charCodeAt(idx))) idx++
      if (isDigit(s.charCodeAt(idx - 1))) isFloat = true
      else idx = eStart
    }
    const text = s.slice(start, idx)
    if (isFloat) {
      const value = Number(text)
      if (!Number.isFinite(value)) throw new Stop(start)
      return [new PyFloat(value), idx]
    }
    const digits = text.startsWith("-") ? text.slice(1) : text
    if (digits.length > MAX_INT_DIGITS) {
      throw new Fail({ _tag: "Unreadable", reason: "integer literal exceeds the digit limit" })
    }
    return [new PyInt(digits === "0" ? "0" : text), idx]
  }

  object(idx: number, depth: number): [PyValue, number] {
    if (depth > MAX_DEPTH) throw new Fail({ _tag: "Unreadable", reason: "nesting too deep" })
    const s = this.s
    const out = new Map<string, PyValue>()
    idx = this.skipWs(idx)
    if (idx >= s.length || s.charCodeAt(idx) !== 0x7d) {
      for (;;) {
        if (idx >= s.length || s.charCodeAt(idx) !== 0x22) {
          this.fail("Expecting property name enclosed in double quotes", idx)
        }
        const [key, afterKey] = this.string(idx + 1)
        idx = this.skipWs(afterKey)
        if (idx >= s.length || s.charCodeAt(idx) !== 0x3a) this.fail("Expecting ':' delimiter", idx)
        idx = this.skipWs(idx + 1)
        const [value, afterValue] = this.value(idx, depth)
        out.set(key, value)
        idx = this.skipWs(afterValue)
        if (idx < s.length && s.charCodeAt(idx) === 0x7d) break
        if (idx >= s.length || s.charCodeAt(idx) !== 0x2c) this.fail("Expecting ',' delimiter", idx)
        idx = this.skipWs(idx + 1)
      }
    }
    return [out, idx + 1]
  }

  array(idx: number, depth: number): [PyValue, number] {
    if (depth > MAX_DEPTH) throw new Fail({ _tag: "Unreadable", reason: "nesting too deep" })
    const s = this.s
    const out: Array<PyValue> = []
    idx = this.skipWs(idx)
    if (idx >= s.length || s.charCodeAt(idx) !== 0x5d) {
      for (;;) {
        const [value, next] = this.value(idx, depth)
        out.push(value)
        idx = this.skipWs(next)
        if (idx < s.length && s.charCodeAt(idx) === 0x5d) break
        if (idx >= s.length || s.charCodeAt(idx) !== 0x2c) this.fail("Expecting ',' delimiter", idx)
        idx = this.skipWs(idx + 1)
      }
    }
    return [out, idx + 1]
  }
}

/** `json.loads(text)` of CPython 3.11 (the C scanner). */
export const loads = (text: string): LoadResult => {
  const scanner = new Scanner(text)
  try {
    let value: PyValue
    let end: number
    try {
      ;[value, end] = scanner.value(scanner.skipWs(0), 0)
    } catch (e) {
      if (e instanceof Stop) scanner.fail("Expecting value", e.idx)
      throw e
    }
    end = scanner.skipWs(end)
    if (end !== text.length) scanner.fail("Extra data", end)
    return { _tag: "Ok", value }
  } catch (e) {
    if (e instanceof Fail) return e.error
    if (e instanceof Stop) return { _tag: "DecodeError", msg: "Expecting value", pos: codePointPos(text, e.idx) }
    throw e
  }
}

/** Python's `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export const floatRepr = (x: number): string => {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0"
  const sign = x < 0 ? "-" : ""
  const [mantissa, expText] = Math.abs(x).toExponential().split("e") as [string, string]
  const digits = mantissa.replace(".", "")
  const exp = Number(expText)
  const point = exp + 1
  if (point > 16 || point <= -4) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    const e = Math.abs(exp).toString().padStart(2, "0")
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${e}`
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

const escapeChar = (c: number): string => {
  switch (c) {
    case 0x22:
      return "\\\""
    case 0x5c:
      return "\\\\"
    case 0x0a:
      return "\\n"
    case 0x0d:
      return "\\r"
    case 0x09:
      return "\\t"
    case 0x08:
      return "\\b"
    case 0x0c:
      return "\\f"
    default:
      return `\\u${c.toString(16).padStart(4, "0")}`
  }
}

/**
 * `json.dumps(s, ensure_ascii=False)` for a string. A lone surrogate (possible from a `\ud800`
 * escape) is written as an escape: CPython would write it raw and fail to encode the response.
 */
export const dumpString = (s: string): string => {
  let out = "\""
  let from = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c === 0x22 || c === 0x5c) {
      out += s.slice(from, i) + escapeChar(c)
      from = i + 1
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const pair = c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
      if (pair) {
        i++
      } else {
        out += s.slice(from, i) + `\\u${c.toString(16)}`
        from = i + 1
      }
    }
  }
  return out + s.slice(from) + "\""
}

/** `json.dumps(value, ensure_ascii=False, separators=(",", ":"))` for decoded values and plain data. */
export const dumps = (value: unknown): string => {
  if (value === null || value === undefined) return "null"
  if (value === true) return "true"
  if (value === false) return "false"
  if (typeof value === "string") return dumpString(value)
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : floatRepr(value)
  if (value instanceof PyInt) return value.text
  if (value instanceof PyFloat) return floatRepr(value.value)
  if (Array.isArray(value)) return `[${value.map(dumps).join(",")}]`
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as object)
  return `{${entries.map(([k, v]) => `${dumpString(String(k))}:${dumps(v)}`).join(",")}}`
}

/** Number of code points, the unit Python's `len(str)` counts. */
export const codePointLength = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++
    n++
  }
  return n
}
