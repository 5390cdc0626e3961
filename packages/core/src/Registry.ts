/**
 * Candidate retrieval. A `Registry` holds business records and, given a normalised request,
 * returns ranked candidates with a calibrated match probability (MatchModel). The in-memory
 * implementation blocks on rare name tokens, phonetic keys (Double Metaphone), ZIP and house
 * number, street, phone and website, so a search compares a small fraction of the records.
 *
 * Registry records are contract Business records where only `id` and `name` are required; any
 * other field may be absent or null (real registry extracts are incomplete).
 */
import { doubleMetaphone } from "double-metaphone"
import { Context, Effect, Either, Layer, ParseResult, Schema, Struct } from "effect"
import { createHash } from "node:crypto"
import { Business } from "./Business.js"
import * as BusinessName from "./BusinessName.js"
import { localDigits, registrableDomain } from "./Contact.js"
import { FUNCTION_WORDS } from "./internal/Text.js"
import { topK } from "./internal/TopK.js"
import * as MatchModel from "./MatchModel.js"
import * as OfficerMatch from "./OfficerMatch.js"
import { digits as tinDigits, TinAuthority, type TinOwner } from "./Tin.js"
import * as UsAddress from "./UsAddress.js"

/** A registry record: a Business without the URLs the host derives from its base URL. */
export const RegistryBusiness = Schema.Struct({
  ...Struct.omit(Business.fields, "url", "console_url"),
  name: Schema.String.pipe(Schema.minLength(1))
}).annotations({ identifier: "RegistryBusiness" })
/** @see RegistryBusiness */
export type RegistryBusiness = typeof RegistryBusiness.Type

const LISTS = [
  "addresses",
  "phone_numbers",
  "reviews",
  "directory_listings",
  "alternative_names",
  "registrations",
  "business_officers",
  "predicted_naics",
  "watchlist_hits",
  "sec_registrations"
] as const

/** A deterministic UUID (version 5 layout) for a nested record that arrived without an id. */
export const derivedId = (...parts: ReadonlyArray<string>): string => {
  const h = createHash("sha1").update(parts.join("\u0000")).digest("hex")
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const ADDRESS_DEFAULTS = {
  street: null,
  city: null,
  state: null,
  zip: null,
  latitude: null,
  longitude: null,
  rdi: null,
  deliverable: false,
  cmra: false,
  url: null,
  delivery_type: null
}

const fillAddress = (u: unknown, owner: string, n: number, withSources: boolean): unknown => {
  if (!isObject(u)) return u
  const filled: Record<string, unknown> = { id: derivedId(owner, "address", String(n)), ...ADDRESS_DEFAULTS }
  for (const [k, v] of Object.entries(u)) if (v !== null && v !== undefined) filled[k] = v
  if (withSources && !Array.isArray(filled.sources)) filled.sources = []
  return filled
}

const fillOfficer = (u: unknown): unknown =>
  isObject(u)
    ? { titles: [], states: [], sources: [], ...u }
    : typeof u === "string"
    ? { name: u, titles: [], states: [], sources: [] }
    : u

const fillRegistration = (u: unknown, owner: string, ownerName: unknown, n: number): unknown => {
  if (!isObject(u)) return u
  const id = typeof u.id === "string" ? u.id : derivedId(owner, "registration", String(n))
  const base: Record<string, unknown> = {
    id,
    name: ownerName,
    file_number: null,
    state: null,
    status: "UNKNOWN",
    issue_date: null,
    inactive_date: null,
    dissolution_date: null,
    address: null,
    registration_type: null,
    standing: null,
    registered_agent: null,
    officers: []
  }
  for (const [k, v] of Object.entries(u)) if (v !== null && v !== undefined) base[k] = v
  if (base.address !== null) base.address = fillAddress(base.address, id, 0, false)
  if (isObject(base.registered_agent)) {
    const agent = base.registered_agent
    base.registered_agent = {
      name: agent.name,
      address: agent.address == null ? null : fillAddress(agent.address, id, 1, false)
    }
  }
  base.officers = Array.isArray(base.officers) ? base.officers.map(fillOfficer) : []
  return base
}

/** Fills what an incomplete extract leaves out: absent or null lists become empty, scalars null. */
const fillDefaults = (u: unknown): unknown => {
  if (!isObject(u)) return u
  const owner = String(u.id)
  const out: Record<string, unknown> = {}
  for (const field of Object.keys(RegistryBusiness.fields)) out[field] = u[field] ?? null
  for (const field of LISTS) if (!Array.isArray(out[field])) out[field] = []
  out.addresses = (out.addresses as Array<unknown>).map((a, i) => fillAddress(a, owner, i, true))
  if (out.primary_address !== null) out.primary_address = fillAddress(out.primary_address, owner, -1, false)
  out.business_officers = (out.business_officers as Array<unknown>).map(fillOfficer)
  out.registrations = (out.registrations as Array<unknown>).map((r, i) => fillRegistration(r, owner, u.name, i))
  out.phone_numbers = (out.phone_numbers as Array<unknown>).filter((p) => typeof p === "string")
  return out
}

const decodeFilled = Schema.decodeUnknownEither(RegistryBusiness, { onExcessProperty: "ignore" })

/** Decodes one registry record (a parsed JSON value), filling defaults; a readable error when it is not one. */
export const decodeRecord = (u: unknown): Either.Either<RegistryBusiness, string> =>
  Either.mapLeft(decodeFilled(fillDefaults(u)), (e) => ParseResult.TreeFormatter.formatErrorSync(e))

/** The comparable form of a registry record. */
export const prepareRecord = (b: RegistryBusiness): MatchModel.Prepared => {
  const names = [b.name, ...b.alternative_names].flatMap(BusinessName.variants)
  const addresses: Array<UsAddress.UsAddress> = []
  const addAddress = (
    a: { street: string | null; city: string | null; state: string | null; zip: string | null } | null
  ) => {
    if (a !== null && (a.street || a.city || a.state || a.zip)) addresses.push(UsAddress.fromParts(a))
  }
  b.addresses.forEach(addAddress)
  addAddress(b.primary_address)
  for (const r of b.registrations) addAddress(r.address)
  if (addresses.length === 0 && b.address) addresses.push(UsAddress.parse(b.address))
  const phones = [...new Set([b.phone_number, ...b.phone_numbers].flatMap((p) => (p ? [localDigits(p)] : [])))].filter((
    p
  ): p is string => p !== undefined)
  const domain = b.website ? registrableDomain(b.website) : undefined
  const officers = [
    ...new Set([...b.business_officers, ...b.registrations.flatMap((r) => r.officers)].map((o) => o.name))
  ]
    .map(OfficerMatch.prepare)
  return { names, addresses, phones, domains: domain === undefined ? [] : [domain], officers }
}

/** A candidate business with its comparison to the request and its match probability. */
export interface Candidate {
  readonly business: RegistryBusiness
  /** The record's comparable form (as the index holds it). */
  readonly prepared: MatchModel.Prepared
  readonly probability: number
  readonly comparison: MatchModel.Comparison
}

/** Options of a search. */
export interface SearchOptions {
  /** At most this many candidates, best first (default 5). */
  readonly limit?: number
}

/** Businesses to verify against. */
export class Registry extends Context.Tag("@osiris/core/Registry")<Registry, {
  /** Ranked candidates for a normalised request, best first. */
  readonly search: (query: MatchModel.Prepared, options?: SearchOptions) => Effect.Effect<ReadonlyArray<Candidate>>
  /** The record with this id, if any. */
  readonly get: (id: string) => Effect.Effect<RegistryBusiness | undefined>
  /** The business an EIN belongs to, if the registry knows it. */
  readonly ownerOfEin: (einDigits: string) => Effect.Effect<TinOwner | undefined>
}>() {
  /** An in-memory registry over the records (indexed once, when the layer is built). */
  static readonly layerMemory = (records: ReadonlyArray<RegistryBusiness>) =>
    Layer.suspend(() => layerFromIndex(makeMemoryIndex(records)))
}

const MINOR = FUNCTION_WORDS

/** Blocking keys of a prepared request or record, with the weight of a shared key of each kind. */
export const blockingKeys = (p: MatchModel.Prepared): Array<string> => {
  const keys = new Set<string>()
  for (const n of p.names) {
    for (const t of n.tokens) {
      if (MINOR.has(t) || t.length < 2) continue
      keys.add(`n${t}`)
      if (t.length >= 4 && !/\d/.test(t)) keys.add(`m${doubleMetaphone(t)[0]}`)
    }
    if (n.tokens.length > 1) keys.add(`k${n.tokens.join("")}`)
  }
  for (const a of p.addresses) {
    if (a.number !== undefined && a.streetName !== undefined) keys.add(`s${a.number} ${a.streetName.replace(/ /g, "")}`)
    if (a.number !== undefined && a.zip5 !== undefined) keys.add(`z${a.zip5} ${a.number}`)
    if (a.poBox !== undefined && a.zip5 !== undefined) keys.add(`b${a.zip5} ${a.poBox}`)
  }
  for (const ph of p.phones) keys.add(`t${ph}`)
  for (const d of p.domains) keys.add(`w${d}`)
  return [...keys]
}

/** Postings longer than this are skipped when the request has rarer keys. */
export const COMMON_POSTING = 2000
/** Most records compared with the model per search. */
export const COMPARE_LIMIT = 20

/**
 * Which of a request's keys vote, given their posting lengths: those no longer than
 * `COMMON_POSTING`, or the shortest when all are common; each with its weight, the key's rarity
 * `ln(total / length) + 1`. Shared by the memory index and any stored index.
 */
export const votingKeys = <K>(
  postings: ReadonlyArray<{ readonly key: K; readonly length: number }>,
  total: number
): Array<{ readonly key: K; readonly idf: number }> => {
  const lists = [...postings].filter((p) => p.length > 0).sort((a, b) => a.length - b.length)
  const usable = lists.filter((l) => l.length <= COMMON_POSTING)
  const use = usable.length > 0 ? usable : lists.slice(0, 1)
  return use.map((l) => ({ key: l.key, idf: Math.log(Math.max(total, 1) / l.length) + 1 }))
}

/** Compares shortlisted records with the request and ranks them (best first) on the model's weight. */
export const rankCandidates = (
  query: MatchModel.Prepared,
  shortlist: ReadonlyArray<{ readonly business: RegistryBusiness; readonly prepared: MatchModel.Prepared }>,
  limit: number
): Array<Candidate> => {
  const candidates = shortlist.map(({ business, prepared }) => {
    const comparison = MatchModel.compare(query, prepared)
    return { business, prepared, comparison, weight: MatchModel.logBayesFactor(comparison) }
  })
  // Rank on the log Bayes factor: probabilities saturate at 1 and would tie.
  candidates.sort((a, b) => b.weight - a.weight || a.business.id.localeCompare(b.business.id))
  return candidates.slice(0, limit).map(({ business, comparison, prepared }) => ({
    business,
    prepared,
    comparison,
    probability: MatchModel.probability(comparison)
  }))
}

/** The in-memory index behind `Registry.layerMemory` (exported for benchmarks). */
export const makeMemoryIndex = (records: ReadonlyArray<RegistryBusiness>) => {
  const prepared: Array<MatchModel.Prepared> = new Array(records.length)
  const building = new Map<string, Array<number>>()
  const byId = new Map<string, number>()
  const byEin = new Map<string, number>()
  records.forEach((r, i) => {
    byId.set(r.id, i)
    const ein = r.ein === null ? undefined : tinDigits(r.ein)
    if (ein !== undefined && !byEin.has(ein)) byEin.set(ein, i)
    const p = prepareRecord(r)
    prepared[i] = p
    for (const k of blockingKeys(p)) {
      let list = building.get(k)
      if (list === undefined) building.set(k, list = [])
      list.push(i)
    }
  })
  const postings = new Map<string, Int32Array>()
  for (const [k, list] of building) postings.set(k, Int32Array.from(list))
  building.clear()
  const total = Math.max(records.length, 1)
  const votes = new Float64Array(records.length)

  /** Votes for records sharing keys with the request; returns the shortlist and how much was touched. */
  const shortlistOf = (query: MatchModel.Prepared) => {
    const use = votingKeys(
      blockingKeys(query).map((k) => postings.get(k)).filter((l): l is Int32Array => l !== undefined).map((l) => ({
        key: l,
        length: l.length
      })),
      total
    )
    // Score records by the rarity of the keys they share with the request (idf), in a reused
    // accumulator (no map, no full sort), then compare the best few with the model.
    const touched: Array<number> = []
    let scanned = 0
    for (const { idf, key: list } of use) {
      scanned += list.length
      for (let k = 0; k < list.length; k++) {
        const i = list[k]!
        if (votes[i] === 0) touched.push(i)
        votes[i] += idf
      }
    }
    const shortlist = topK(touched, votes, COMPARE_LIMIT)
    for (const i of touched) votes[i] = 0
    return { shortlist, scanned, touched: touched.length }
  }

  const search = (query: MatchModel.Prepared, limit: number): Array<Candidate> =>
    rankCandidates(
      query,
      shortlistOf(query).shortlist.map((i) => ({ business: records[i]!, prepared: prepared[i]! })),
      limit
    )

  return {
    size: records.length,
    keys: postings.size,
    search,
    /** How much of the index a search touches: postings scanned, distinct records voted, records compared. */
    explain: (query: MatchModel.Prepared) => {
      const { scanned, shortlist, touched } = shortlistOf(query)
      return { scanned, touched, compared: shortlist.length }
    },
    get: (id: string) => {
      const i = byId.get(id)
      return i === undefined ? undefined : records[i]
    },
    ownerOfEin: (ein: string): TinOwner | undefined => {
      const i = byEin.get(ein)
      return i === undefined ? undefined : { name: records[i]!.name }
    }
  }
}

/** The default TIN authority: the EINs known to the registry (DECISIONS section 6). */
export const layerTinAuthority = Layer.effect(
  TinAuthority,
  Effect.map(Registry, (registry) => TinAuthority.make(registry.ownerOfEin))
)

/** A registry over an index built beforehand (benchmarks build the index once and measure it). */
export const layerFromIndex = (index: ReturnType<typeof makeMemoryIndex>) =>
  Layer.succeed(Registry, {
    search: (query, options) => Effect.sync(() => index.search(query, options?.limit ?? 5)),
    get: (id) => Effect.sync(() => index.get(id)),
    ownerOfEin: (ein) => Effect.sync(() => index.ownerOfEin(ein))
  })
