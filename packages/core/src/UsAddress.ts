/**
 * US addresses from one free-text line: house number, directionals, street name, suffix, unit,
 * city, state, ZIP5/ZIP4, standardised to USPS Publication 28 (C1 suffixes, C2 unit designators),
 * checked against the GeoNames ZIP table, with the validation level of DECISIONS section 6:
 * FULL = number, street, city, valid state and ZIP5, all consistent; PARTIAL = parsed but
 * incomplete or inconsistent; INVALID = not even a city or state.
 */
import directionalData from "./data/directionals.json" with { type: "json" }
import stateData from "./data/states.json" with { type: "json" }
import suffixData from "./data/street-suffixes.json" with { type: "json" }
import unitData from "./data/units.json" with { type: "json" }
import zipData from "./data/zips.json" with { type: "json" }
import { fold } from "./internal/Text.js"
import type { ValidationLevel } from "./Search.js"

/** A parsed, standardised US address. Parts not found are undefined. */
export interface UsAddress {
  readonly number?: string
  readonly predirectional?: string
  /** Street name without suffix and directionals, upper case ("MAIN", "1ST", "LA CIENEGA"). */
  readonly streetName?: string
  /** USPS standard suffix abbreviation ("ST", "AVE", "BLVD"). */
  readonly suffix?: string
  readonly postdirectional?: string
  /** USPS C2 designator ("APT", "STE", "#") and its identifier. */
  readonly unitType?: string
  readonly unitId?: string
  /** PO Box number when the address is a post-office box. */
  readonly poBox?: string
  readonly city?: string
  readonly state?: string
  readonly zip5?: string
  readonly zip4?: string
  /** City and state were filled in from the ZIP table. */
  readonly inferred: boolean
  /** ZIP exists, and its state (and the city, when known for that state) agree. */
  readonly consistent: boolean
  readonly latitude?: number
  readonly longitude?: number
  readonly validation: ValidationLevel
}

interface ZipRow {
  readonly city: string
  readonly state: string
  readonly latitude: number
  readonly longitude: number
}

interface Tables {
  readonly zips: ReadonlyMap<string, ZipRow>
  readonly citiesByState: ReadonlyMap<string, ReadonlySet<string>>
  readonly stateNames: ReadonlyMap<string, string>
  readonly maxStateWords: number
  readonly maxCityWords: number
}

const CITY_WORDS: Readonly<Record<string, string>> = { SAINT: "ST", FORT: "FT", MOUNT: "MT", SAINTE: "STE" }

/** City names compared upper case, with Saint/Fort/Mount abbreviated as the USPS does. */
export const normalizeCity = (city: string): string =>
  fold(city).toUpperCase().replace(/[^A-Z0-9 ]+/g, " ").trim().split(/\s+/).map((w) => CITY_WORDS[w] ?? w).join(" ")

let tables: Tables | undefined
const load = (): Tables => {
  if (tables !== undefined) return tables
  const zips = new Map<string, ZipRow>()
  const citiesByState = new Map<string, Set<string>>()
  let maxCityWords = 1
  for (const line of zipData as ReadonlyArray<string>) {
    const [zip, city, state, lat, lon] = line.split("|") as [string, string, string, string, string]
    const c = normalizeCity(city)
    zips.set(zip, { city: c, state, latitude: Number(lat), longitude: Number(lon) })
    if (state === "") continue
    let set = citiesByState.get(state)
    if (set === undefined) citiesByState.set(state, set = new Set())
    set.add(c)
    maxCityWords = Math.max(maxCityWords, c.split(" ").length)
  }
  const stateNames = new Map<string, string>()
  let maxStateWords = 1
  for (const [code, names] of Object.entries(stateData as Record<string, ReadonlyArray<string>>)) {
    stateNames.set(code, code)
    for (const n of names) {
      const key = fold(n).toUpperCase().replace(/[^A-Z ]+/g, "").trim()
      stateNames.set(key, code)
      maxStateWords = Math.max(maxStateWords, key.split(" ").length)
    }
  }
  return tables = { zips, citiesByState, stateNames, maxStateWords, maxCityWords }
}

const suffixes = suffixData as Readonly<Record<string, string>>
const units = unitData as Readonly<Record<string, { readonly standard: string; readonly range: boolean }>>
const directionals = directionalData as Readonly<Record<string, string>>

const ZIP = /^(\d{5})(?:-?(\d{4}))?$/
const NUMBER = /^(\d+[A-Z]?|\d+-\d+[A-Z]?|\d+\/\d+)$/

/** The ZIP table row of a ZIP5, if known. */
export const lookupZip = (zip5: string): ZipRow | undefined => load().zips.get(zip5)

/** The USPS state code of a code or state name, if it is one. */
export const stateCode = (s: string): string | undefined => {
  const key = fold(s).toUpperCase().replace(/[^A-Z ]+/g, "").trim()
  const code = load().stateNames.get(key)
  return code
}

interface Token {
  readonly text: string
  /** A comma (or line break) follows this token. */
  readonly comma: boolean
}

const tokenize = (line: string): Array<Token> => {
  const cleaned = fold(line).toUpperCase()
    // Directions are not part of the address: "(East Side)", "between 50th and 51st sts.".
    .replace(/\([^)]*\)/g, " ")
    .replace(/\b(?:BETWEEN|BTWN|BTW|NEAR|CORNER OF)\b[^,]*/g, " ")
    .replace(/#/g, " # ")
    .replace(/(\d)(ST|ND|RD|TH)\b/g, "$1$2")
    .replace(/[.'`\u2019]/g, "")
    .replace(/[;\n\r]/g, ",")
    .replace(/[^A-Z0-9#,/ -]+/g, " ")
    .replace(/\s+-\s+/g, " ")
  const out: Array<Token> = []
  for (const segment of cleaned.split(",")) {
    const words = segment.trim().split(/\s+/).filter((w) => w.length > 0)
    words.forEach((w, i) => out.push({ text: w, comma: i === words.length - 1 }))
  }
  return out
}

const ORDINALS: Readonly<Record<string, string>> = {
  FIRST: "1ST",
  SECOND: "2ND",
  THIRD: "3RD",
  FOURTH: "4TH",
  FIFTH: "5TH",
  SIXTH: "6TH",
  SEVENTH: "7TH",
  EIGHTH: "8TH",
  NINTH: "9TH",
  TENTH: "10TH"
}

interface StreetParts {
  number?: string
  predirectional?: string
  streetName?: string
  suffix?: string
  postdirectional?: string
  unitType?: string
  unitId?: string
  poBox?: string
}

/** Parses the street line (number, directionals, name, suffix, unit). */
const parseStreet = (words: ReadonlyArray<string>): StreetParts => {
  const w = [...words]
  const out: StreetParts = {}
  // Post-office boxes: "PO BOX 12", "P O BOX 12", "POB 12", "BOX 12".
  const joined = w.join(" ")
  const box = /^(?:P ?O ?B(?:OX)?|POST OFFICE BOX|BOX)\s+(\S+)/.exec(joined)
  if (box !== null) {
    out.poBox = box[1]!
    return out
  }
  // Unit: the last designator followed by an identifier (or a standalone designator), or an
  // ordinal before a level designator ("1st Floor" -> FL 1).
  for (let i = w.length - 1; i >= 1; i--) {
    const u = units[w[i]!]
    if (u === undefined) continue
    if (u.range && i === w.length - 1 && i >= 2 && /^\d+(ST|ND|RD|TH)?$/.test(w[i - 1]!)) {
      out.unitType = u.standard
      out.unitId = w[i - 1]!.replace(/(ST|ND|RD|TH)$/, "")
      w.splice(i - 1)
      break
    }
    if (u.range && i + 1 < w.length) {
      out.unitType = u.standard
      out.unitId = w.slice(i + 1).join(" ")
      w.splice(i)
      break
    }
    if (!u.range && i === w.length - 1) {
      out.unitType = u.standard
      w.splice(i)
      break
    }
  }
  if (w.length > 0 && NUMBER.test(w[0]!)) {
    const n = w.shift()!
    // A range of house numbers on one lot ("8938-40") is addressed by its first number; a Queens
    // style number ("85-15", both parts as long) is kept whole.
    const range = /^(\d+)-(\d+)$/.exec(n)
    out.number = range !== null && range[2]!.length < range[1]!.length ? range[1]! : n
  }
  // A trailing bare identifier after a street ("123 MAIN ST 4B") is a unit without a designator.
  if (
    w.length >= 3 && out.unitType === undefined && /^\d+[A-Z]?$/.test(w[w.length - 1]!) && suffixes[w[w.length - 2]!]
  ) {
    out.unitType = "#"
    out.unitId = w.pop()!
  }
  const last = () => w[w.length - 1]!
  if (w.length >= 3 && directionals[last()] !== undefined && suffixes[w[w.length - 2]!] !== undefined) {
    out.postdirectional = directionals[w.pop()!]!
  }
  if (w.length >= 2 && suffixes[last()] !== undefined) out.suffix = suffixes[w.pop()!]!
  if (w.length >= 2 && directionals[w[0]!] !== undefined) out.predirectional = directionals[w.shift()!]!
  if (w.length > 0) out.streetName = w.map((x) => ORDINALS[x] ?? x).join(" ")
  return out
}

/** Parses and standardises one free-text address line. */
export const parse = (line: string): UsAddress => {
  const t = load()
  const toks = tokenize(line)
  let end = toks.length
  let zip5: string | undefined
  let zip4: string | undefined
  let state: string | undefined
  let city: string | undefined
  // ZIP at the end ("62701", "62701-1234", "627011234").
  if (end > 0) {
    const m = ZIP.exec(toks[end - 1]!.text) ?? (/^\d{9}$/.test(toks[end - 1]!.text)
      ? /^(\d{5})(\d{4})$/.exec(toks[end - 1]!.text)
      : null)
    if (m !== null && end > 1) {
      zip5 = m[1]
      zip4 = m[2]
      end--
    }
  }
  // State code or name just before (longest name first).
  for (let n = Math.min(t.maxStateWords, end - 1); n >= 1 && state === undefined; n--) {
    const key = toks.slice(end - n, end).map((x) => x.text).join(" ")
    const code = t.stateNames.get(key)
    if (code !== undefined && (n > 1 || key.length === 2 || toks[end - n - 1]?.comma === true || zip5 !== undefined)) {
      state = code
      end -= n
      // "..., New York" with no ZIP: a state name that is also a city of that state, right after
      // the street part, names the city (New York, NY).
      if (
        zip5 === undefined && key.length > 2 && toks[end - 1]?.comma === true && t.citiesByState.get(code)?.has(key)
      ) {
        city = normalizeCity(key)
      }
    }
  }
  // City: after the last comma of the street part, or the longest known city name of the state.
  const commaBefore = (i: number) => i > 0 && toks[i - 1]!.comma
  let cityStart = -1
  if ((state !== undefined || zip5 !== undefined) && city === undefined) {
    const known = t.citiesByState.get(state ?? t.zips.get(zip5!)?.state ?? "")
    if (known !== undefined) {
      // The whole line may be the city when it does not start with a house number.
      const max = end > 0 && !NUMBER.test(toks[0]!.text) ? end : end - 1
      for (let n = Math.min(t.maxCityWords, max); n >= 1; n--) {
        const name = normalizeCity(toks.slice(end - n, end).map((x) => x.text).join(" "))
        if (known.has(name)) {
          cityStart = end - n
          break
        }
      }
    }
  }
  if (cityStart < 0 && city === undefined) {
    for (let i = end - 1; i >= 1; i--) {
      if (commaBefore(i)) {
        // A segment that is a unit ("Suite 5") or starts with a number is not a city.
        const first = toks[i]!.text
        if (!NUMBER.test(first) && units[first] === undefined) cityStart = i
        break
      }
    }
  }
  if (cityStart >= 0) {
    city = normalizeCity(toks.slice(cityStart, end).map((x) => x.text).join(" "))
    end = cityStart
  }
  const street = parseStreet(toks.slice(0, end).map((x) => x.text).filter((x) => x !== ""))
  // Consistency with the ZIP table; fill city and state from the ZIP when they are missing.
  let inferred = false
  let consistent = false
  let latitude: number | undefined
  let longitude: number | undefined
  if (zip5 !== undefined) {
    const row = t.zips.get(zip5)
    if (row !== undefined) {
      latitude = row.latitude
      longitude = row.longitude
      if (state === undefined && row.state !== "") {
        state = row.state
        inferred = true
      }
      if (city === undefined) {
        city = row.city
        inferred = true
      }
      const cityKnown = t.citiesByState.get(row.state)?.has(city) ?? false
      consistent = row.state === state && (city === row.city || cityKnown)
    }
  }
  const hasStreet = (street.number !== undefined && street.streetName !== undefined) || street.poBox !== undefined
  const validation: ValidationLevel = city === undefined && state === undefined
    ? "INVALID"
    : hasStreet && city !== undefined && state !== undefined && zip5 !== undefined && consistent
    ? "FULL"
    : "PARTIAL"
  return {
    ...street,
    ...(city === undefined ? {} : { city }),
    ...(state === undefined ? {} : { state }),
    ...(zip5 === undefined ? {} : { zip5 }),
    ...(zip4 === undefined ? {} : { zip4 }),
    ...(latitude === undefined ? {} : { latitude, longitude: longitude! }),
    inferred,
    consistent,
    validation
  }
}

/** The USPS street line: "123 N MAIN ST APT 4B" or "PO BOX 12". */
export const streetLine = (a: UsAddress): string | undefined => {
  if (a.poBox !== undefined) return `PO BOX ${a.poBox}`
  const parts = [a.number, a.predirectional, a.streetName, a.suffix, a.postdirectional]
  if (a.unitType !== undefined) parts.push(a.unitType, a.unitId)
  const line = parts.filter((p) => p !== undefined).join(" ")
  return line.length > 0 ? line : undefined
}

/** Parses an address given as separate fields (a registry record). */
export const fromParts = (parts: {
  readonly street?: string | null | undefined
  readonly city?: string | null | undefined
  readonly state?: string | null | undefined
  readonly zip?: string | null | undefined
}): UsAddress =>
  parse([parts.street, parts.city, [parts.state, parts.zip].filter((x) => x).join(" ")].filter((x) => x).join(", "))
