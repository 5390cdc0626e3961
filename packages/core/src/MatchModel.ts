/**
 * Fellegi-Sunter record comparison: a request and a registry record are compared field by field
 * (name, street address, area, phone, website, officers), each field's agreement level carries a
 * weight log2(m/u) estimated from labelled pairs (`npm run train`, docs/ACCURACY.md), and the sum
 * plus the prior log-odds gives one calibrated match probability. Missing fields weigh nothing.
 */
import * as AddressMatch from "./AddressMatch.js"
import type * as BusinessName from "./BusinessName.js"
import weightData from "./data/match-weights.json" with { type: "json" }
import * as NameMatch from "./NameMatch.js"
import * as OfficerMatch from "./OfficerMatch.js"
import type { UsAddress } from "./UsAddress.js"

/** A request or a record, normalised for comparison. */
export interface Prepared {
  readonly names: ReadonlyArray<BusinessName.BusinessName>
  readonly addresses: ReadonlyArray<UsAddress>
  /** Last seven digits of each phone number. */
  readonly phones: ReadonlyArray<string>
  /** Registrable domains of the websites. */
  readonly domains: ReadonlyArray<string>
  readonly officers: ReadonlyArray<OfficerMatch.PreparedName>
}

const NAME_LEVELS = ["exact", "high", "medium", "partial", "low"] as const
const STREET_LEVELS = ["exact", "same", "near", "block", "different", "none"] as const

/**
 * Agreement levels per field. Name and street are not independent (a different name at the same
 * street address is a neighbour in the same building, not the business), so they are weighed as
 * one joint field, `identity` = name level x street level ("none" when a side has no street).
 */
export const levels = {
  identity: NAME_LEVELS.flatMap((n) => STREET_LEVELS.map((st) => `${n}/${st}` as const)),
  area: ["zip", "city", "state", "different"],
  phone: ["same", "different"],
  website: ["same", "different"],
  officer: ["same", "different"]
} as const

/** A field of the comparison. */
export type Field = keyof typeof levels

/** The agreement level of each field, or undefined when a side lacks the field. */
export type Comparison = { readonly [F in Field]?: (typeof levels)[F][number] } & {
  /** The name level alone (part of `identity`). */
  readonly name?: (typeof NAME_LEVELS)[number]
  /** The street level alone (part of `identity`). */
  readonly street?: Exclude<(typeof STREET_LEVELS)[number], "none">
}

const nameLevel = (q: ReadonlyArray<BusinessName.BusinessName>, r: ReadonlyArray<BusinessName.BusinessName>) => {
  let sim = 0
  let contained = 0
  for (const a of q) {
    for (const b of r) {
      const c = NameMatch.compare(a, b)
      if (c.similarity > sim) sim = c.similarity
      if (c.containment > contained) contained = c.containment
    }
  }
  if (sim >= 0.999) return "exact" as const
  if (sim >= NameMatch.SIMILAR_THRESHOLD) return "high" as const
  if (sim >= 0.75) return "medium" as const
  if (contained >= 0.99 || sim >= 0.55) return "partial" as const
  return "low" as const
}

const streetLevel = (q: UsAddress, r: UsAddress) => {
  if (q.poBox !== undefined || r.poBox !== undefined) {
    return q.poBox !== undefined && q.poBox === r.poBox ? "exact" as const : "different" as const
  }
  if (q.number === undefined || r.number === undefined || q.streetName === undefined || r.streetName === undefined) {
    return undefined
  }
  if (q.number !== r.number) {
    // Same street, house numbers within a hundred: the same block, as sources often disagree.
    const a = Number.parseInt(q.number, 10)
    const b = Number.parseInt(r.number, 10)
    const sameStreet = q.streetName === r.streetName || AddressMatch.nearStreet(q.streetName, r.streetName)
    return sameStreet && Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) < 100 &&
        Math.floor(a / 100) === Math.floor(b / 100)
      ? "block" as const
      : "different" as const
  }
  if (q.streetName === r.streetName) {
    return q.suffix === r.suffix && q.predirectional === r.predirectional ? "exact" as const : "same" as const
  }
  return AddressMatch.nearStreet(q.streetName, r.streetName) ? "near" as const : "different" as const
}

const areaLevel = (q: UsAddress, r: UsAddress) => {
  if (q.zip5 !== undefined && r.zip5 !== undefined && q.zip5 === r.zip5) return "zip" as const
  if (
    q.city !== undefined && r.city !== undefined && q.city === r.city && !(q.state && r.state && q.state !== r.state)
  ) {
    return "city" as const
  }
  if (q.state !== undefined && r.state !== undefined && q.state === r.state) return "state" as const
  if (q.city === undefined && q.state === undefined && q.zip5 === undefined) return undefined
  if (r.city === undefined && r.state === undefined && r.zip5 === undefined) return undefined
  return "different" as const
}

const order = <F extends Field>(field: F, level: (typeof levels)[F][number]) =>
  (levels[field] as ReadonlyArray<string>).indexOf(level)

const bestOf = <F extends Field>(field: F, a: Comparison[F], b: Comparison[F]): Comparison[F] =>
  a === undefined ? b : b === undefined ? a : order(field, a as any) <= order(field, b as any) ? a : b

const STREET_ORDER: ReadonlyArray<string> = STREET_LEVELS

/** Compares a request with a record. */
export const compare = (q: Prepared, r: Prepared): Comparison => {
  const out: { -readonly [K in keyof Comparison]?: Exclude<Comparison[K], undefined> } = {}
  const name = q.names.length > 0 && r.names.length > 0 ? nameLevel(q.names, r.names) : undefined
  let street: Exclude<Comparison["street"], undefined> | undefined
  for (const qa of q.addresses) {
    for (const ra of r.addresses) {
      const s = streetLevel(qa, ra)
      if (s !== undefined && (street === undefined || STREET_ORDER.indexOf(s) < STREET_ORDER.indexOf(street))) {
        street = s
      }
      const area = bestOf("area", out.area, areaLevel(qa, ra))
      if (area !== undefined) out.area = area
    }
  }
  if (name !== undefined) {
    out.name = name
    out.identity = `${name}/${street ?? "none"}`
  }
  if (street !== undefined) out.street = street
  if (q.phones.length > 0 && r.phones.length > 0) {
    out.phone = q.phones.some((p) => r.phones.includes(p)) ? "same" : "different"
  }
  if (q.domains.length > 0 && r.domains.length > 0) {
    out.website = q.domains.some((d) => r.domains.includes(d)) ? "same" : "different"
  }
  if (q.officers.length > 0 && r.officers.length > 0) {
    const g = OfficerMatch.gradePrepared(q.officers, r.officers)
    out.officer = g === "EXACT" || g === "SIMILAR" ? "same" : "different"
  }
  return out
}

/**
 * Whether a compared record may be the business at all: its name must share something with the
 * request (level partial or better). A different name at the same address is another business in
 * the same building, however well the rest agrees.
 */
export const eligible = (c: Comparison): boolean => c.name !== undefined && c.name !== "low"

/** Estimated m and u probabilities per level, and the prior share of matches among candidates. */
export interface Weights {
  readonly prior: number
  /** Probability from which the best candidate counts as found (chosen on training data). */
  readonly threshold?: number
  readonly m: { readonly [F in Field]: Readonly<Record<string, number>> }
  readonly u: { readonly [F in Field]: Readonly<Record<string, number>> }
}

/** The weights shipped with the core (estimated by `npm run train`). */
export const defaultWeights: Weights = weightData as unknown as Weights

/** Log2 Bayes factor of a comparison under the weights. */
export const logBayesFactor = (c: Comparison, w: Weights = defaultWeights): number => {
  let total = 0
  for (const field of Object.keys(levels) as Array<Field>) {
    const level = c[field]
    if (level === undefined) continue
    const m = w.m[field]?.[level]
    const u = w.u[field]?.[level]
    if (m !== undefined && u !== undefined && m > 0 && u > 0) total += Math.log2(m / u)
  }
  return total
}

/** The match probability of a comparison: the prior odds times the Bayes factor. */
export const probability = (c: Comparison, w: Weights = defaultWeights): number => {
  const logOdds = Math.log2(w.prior / (1 - w.prior)) + logBayesFactor(c, w)
  return 1 / (1 + Math.pow(2, -logOdds))
}

/**
 * Estimates m and u from labelled comparisons, with add-one smoothing per level:
 * m(level) = share among true matches, u(level) = share among non-matches.
 */
export const estimate = (
  pairs: ReadonlyArray<{ readonly comparison: Comparison; readonly match: boolean }>
): Weights => {
  const count = (match: boolean) => {
    const out = {} as Record<Field, Record<string, number>>
    for (const field of Object.keys(levels) as Array<Field>) {
      const counts: Record<string, number> = {}
      for (const l of levels[field]) counts[l] = 1
      let n = levels[field].length
      for (const p of pairs) {
        if (p.match !== match) continue
        const l = p.comparison[field]
        if (l === undefined) continue
        counts[l] = (counts[l] ?? 0) + 1
        n++
      }
      for (const l of levels[field]) counts[l] = counts[l]! / n
      out[field] = counts
    }
    return out
  }
  const matches = pairs.filter((p) => p.match).length
  const m = count(true)
  const u = count(false)
  monotone(m.identity!, u.identity!)
  return { prior: (matches + 1) / (pairs.length + 2), m, u }
}

/**
 * Makes the joint identity weights monotone: a better name level at the same street level, or a
 * better street level with the same name level, weighs more (sparse cells of the training
 * data would otherwise rank "partial name" above "high name"). Adjusts m so that log2(m/u) is the
 * running maximum from the worse levels up.
 */
const monotone = (m: Record<string, number>, u: Record<string, number>) => {
  // Strictly better evidence weighs strictly more, so candidates never tie on a raised cell.
  const MARGIN = 0.05
  const w = (n: string, st: string) => Math.log2(m[`${n}/${st}`]! / u[`${n}/${st}`]!)
  const set = (n: string, st: string, weight: number) => {
    m[`${n}/${st}`] = u[`${n}/${st}`]! * Math.pow(2, weight)
  }
  const names = [...NAME_LEVELS].reverse()
  const streets = STREET_LEVELS.filter((x) => x !== "none").reverse()
  for (let round = 0; round < 3; round++) {
    for (const st of [...streets, "none"]) {
      for (let i = 1; i < names.length; i++) {
        if (w(names[i]!, st) < w(names[i - 1]!, st) + MARGIN) set(names[i]!, st, w(names[i - 1]!, st) + MARGIN)
      }
    }
    for (const n of names) {
      for (let i = 1; i < streets.length; i++) {
        if (w(n, streets[i]!) < w(n, streets[i - 1]!) + MARGIN) set(n, streets[i]!, w(n, streets[i - 1]!) + MARGIN)
      }
    }
  }
}
