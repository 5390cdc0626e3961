/**
 * The labelled data sets of ../shared/data as registries and requests. Splits are fixed and
 * deterministic: training (`npm run train`) only ever sees the training parts; `npm run eval`
 * reports on the rest. See docs/ACCURACY.md.
 */
import { parse } from "csv-parse/sync"
import { Either } from "effect"
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { decodeRecord, derivedId, type RegistryBusiness } from "../src/Registry.js"
import type { NameAddressForm } from "../src/SearchRequest.js"
import * as UsAddress from "../src/UsAddress.js"

/** Where the shared data lives (OSIRIS_SHARED_DATA, else ../shared/data beside the repository). */
export const dataRoot = (): string => {
  const candidates = [
    process.env.OSIRIS_SHARED_DATA,
    join(import.meta.dirname, "..", "..", "..", "..", "shared", "data"),
    join(process.cwd(), "..", "shared", "data")
  ].filter((p): p is string => p !== undefined)
  const found = candidates.map((p) => resolve(p)).find((p) => existsSync(join(p, "README.md")))
  if (found === undefined) throw new Error(`shared data not found; tried ${candidates.join(", ")}`)
  return found
}

const csv = (file: string, encoding: BufferEncoding = "utf8"): Array<Record<string, string>> =>
  parse(readFileSync(join(dataRoot(), file), encoding), { columns: true, relax_quotes: true, skip_empty_lines: true })

const record = (u: Record<string, unknown>): RegistryBusiness => Either.getOrThrow(decodeRecord(u))

/** A request with the registry id it should find (null: the business is not in the registry). */
export interface LabelledQuery {
  readonly key: string
  readonly request: NameAddressForm
  readonly expected: string | null
}

/** A registry and requests against it. */
export interface Task {
  readonly name: string
  readonly registry: ReadonlyArray<RegistryBusiness>
  readonly queries: ReadonlyArray<LabelledQuery>
}

/** A stable 0..1 share of a key, for deterministic splits. */
export const bucket = (key: string): number =>
  parseInt(createHash("sha256").update(key).digest("hex").slice(0, 8), 16) / 0x100000000

const request = (
  name: string,
  address: string,
  phone?: string,
  extra: Partial<NameAddressForm> = {}
): NameAddressForm => {
  const a = address.trim().length >= 2 ? address.trim() : "unknown"
  const p = phone?.trim()
  return {
    name: name.trim().length > 0 ? name.trim() : "unknown",
    address: a,
    ...(p ? { phone_number: p } : {}),
    ...extra
  }
}

// --- Fodors-Zagat ---------------------------------------------------------------------------

interface Restaurant {
  readonly id: string
  readonly name: string
  readonly addr: string
  readonly city: string
  readonly phone: string
}

const zagatRecord = (r: Restaurant): RegistryBusiness =>
  record({
    id: derivedId("zagat", r.id),
    name: r.name,
    address: `${r.addr}, ${r.city}`,
    addresses: [{ street: r.addr, city: r.city }],
    phone_number: r.phone
  })

/** Fodor's restaurants (queries) and Zagat's (registry) with the 112 gold matches. */
export const fodorsZagat = () => {
  const fodors = csv("fodors-zagats-magellan/fodors.csv") as unknown as Array<Restaurant>
  const zagat = csv("fodors-zagats-magellan/zagats.csv") as unknown as Array<Restaurant>
  const gold = new Map(csv("fodors-zagats-magellan/matches_fodors_zagats.csv").map((r) => [r.fodors_id!, r.zagats_id!]))
  return { fodors, zagat, gold }
}

/** The whole gold list: registry = Zagat, queries = every Fodor's restaurant. */
export const fodorsZagatFull = (): Task => {
  const { fodors, gold, zagat } = fodorsZagat()
  return {
    name: "Fodors-Zagat (full gold list)",
    registry: zagat.map(zagatRecord),
    queries: fodors.map((f) => ({
      key: f.id,
      request: request(f.name, `${f.addr}, ${f.city}`, f.phone),
      expected: gold.has(f.id) ? derivedId("zagat", gold.get(f.id)!) : null
    }))
  }
}

/** Undo DeepMatcher's tokenisation: "` arnie morton \ 's of chicago '" -> "arnie morton's of chicago". */
export const untokenize = (s: string): string =>
  s.replace(/^[`'\s]+|[`'\s]+$/g, "").replace(/ \\ '/g, "'").replace(/ \\'/g, "'").replace(/\s+([.,)])/g, "$1")
    .replace(/\(\s+/g, "(").replace(/\s+-/g, "-").replace(/\s+/g, " ").trim()

/** A labelled pair of the DeepMatcher split. */
export interface DeepMatcherPair {
  readonly label: boolean
  readonly left: Restaurant
  readonly right: Restaurant
}

const side = (r: Record<string, string>, prefix: "left" | "right"): Restaurant => ({
  id: r[`${prefix}_id`]!,
  name: untokenize(r[`${prefix}_name`]!),
  addr: untokenize(r[`${prefix}_addr`]!),
  city: untokenize(r[`${prefix}_city`]!),
  phone: untokenize(r[`${prefix}_phone`]!).replace(/\s+/g, "")
})

/** The DeepMatcher split (train, valid or test) of Fodors-Zagat. */
export const deepMatcherPairs = (split: "train" | "valid" | "test"): Array<DeepMatcherPair> =>
  csv(`fodors-zagats-deepmatcher/${split}.csv`).map((r) => ({
    label: r.label === "1",
    left: side(r, "left"),
    right: side(r, "right")
  }))

/** DeepMatcher's table B (Zagat) as a registry, ids derived from its own ids. */
export const deepMatcherRegistry = (): Array<RegistryBusiness> =>
  csv("fodors-zagats-deepmatcher/tableB.csv").map((r) =>
    record({
      id: derivedId("dm-b", r.id!),
      name: untokenize(r.name!),
      address: `${untokenize(r.addr!)}, ${untokenize(r.city!)}`,
      addresses: [{ street: untokenize(r.addr!), city: untokenize(r.city!) }],
      phone_number: untokenize(r.phone!).replace(/\s+/g, "")
    })
  )

/** A restaurant of the DeepMatcher split as a request. */
export const deepMatcherRequest = (r: Restaurant): NameAddressForm => request(r.name, `${r.addr}, ${r.city}`, r.phone)

// --- Chicago early-childhood sites ----------------------------------------------------------

interface Site {
  readonly trueId: string
  readonly id: string
  readonly name: string
  readonly address: string
  readonly zip: string
  readonly phone: string
  readonly website: string
  readonly officers: ReadonlyArray<string>
}

const clean = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ").trim()

/** The sites, with Chicago, IL added to addresses that name no city or state (all are in Chicago). */
export const chicagoSites = (): Array<Site> =>
  csv("dedupe-chicago-early-childhood/csv_example_input_with_true_ids.csv", "latin1").map((r) => {
    const raw = clean(r["Address"])
    const zip = clean(r["Zip"]).slice(0, 5)
    const parsed = UsAddress.parse(raw)
    const address = parsed.state === undefined ? `${raw}, Chicago, IL ${zip}`.trim() : raw
    const phone = clean(r["Phone"]).replace(/\D/g, "")
    return {
      trueId: r["True Id"]!,
      id: r["Id"]!,
      name: clean(r["Site name"]),
      address,
      zip,
      // Seven-digit numbers are Chicago numbers without the area code.
      phone: phone.length === 7 ? `312${phone}` : phone,
      website: clean(r["Website"]),
      officers: [clean(r["Executive Director"]), clean(r["Center Director"])].filter((o) => o.length > 3)
    }
  })

/**
 * Chicago task for one half of the entities (split on the true id): the registry holds one record
 * per entity for 80% of them; the queries are their other records, plus every record of the 20%
 * left out (which must find nothing).
 */
export const chicagoTask = (half: "train" | "test"): Task => {
  const sites = chicagoSites().filter((s) => (bucket(`chicago:${s.trueId}`) < 0.5) === (half === "train"))
  const byEntity = new Map<string, Array<Site>>()
  for (const s of sites) {
    const list = byEntity.get(s.trueId) ?? []
    list.push(s)
    byEntity.set(s.trueId, list)
  }
  const registry: Array<RegistryBusiness> = []
  const queries: Array<LabelledQuery> = []
  for (const [entity, list] of byEntity) {
    list.sort((a, b) => Number(a.id) - Number(b.id))
    const inRegistry = bucket(`chicago-registry:${entity}`) < 0.8
    const [head, ...rest] = list
    const toRequest = (s: Site) =>
      request(s.name, s.address, s.phone || undefined, {
        ...(s.website ? { website: s.website } : {}),
        ...(s.officers.length > 0 ? { officer_names: s.officers } : {})
      })
    if (inRegistry) {
      registry.push(record({
        id: derivedId("chicago", entity),
        name: head!.name || "unknown",
        address: head!.address,
        addresses: [UsAddress.parse(head!.address)].map((a) => ({
          street: UsAddress.streetLine(a) ?? null,
          city: a.city ?? null,
          state: a.state ?? null,
          zip: a.zip5 ?? null
        })),
        phone_number: head!.phone || null,
        website: head!.website || null,
        business_officers: head!.officers.map((name) => ({ name }))
      }))
      for (const s of rest) queries.push({ key: s.id, request: toRequest(s), expected: derivedId("chicago", entity) })
    } else {
      for (const s of list) queries.push({ key: s.id, request: toRequest(s), expected: null })
    }
  }
  return { name: `Chicago early-childhood (${half} half)`, registry, queries }
}

// --- PATSTAT applicants ---------------------------------------------------------------------

/** Applicant names grouped by hand-checked entity, for one half of the entities. */
export const patstatEntities = (half: "train" | "test"): Map<string, Array<string>> => {
  const out = new Map<string, Array<string>>()
  for (const r of csv("patstat-leuven-applicants/patstat_reference.csv")) {
    const id = r.leuven_id!
    if ((bucket(`patstat:${id}`) < 0.5) !== (half === "train")) continue
    const name = r.person_name!.replace(/^\*\s*/, "").trim()
    const list = out.get(id) ?? []
    list.push(name)
    out.set(id, list)
  }
  return out
}

// --- nomenklatura name pairs ----------------------------------------------------------------

/** A labelled name pair of the nomenklatura benchmark, with logic_v2's frozen score when there is one. */
export interface NamePair {
  readonly schema: string
  readonly name1: string
  readonly name2: string
  readonly match: boolean
  readonly logicV2: number | undefined
}

/** The 826 nomenklatura pairs. */
export const nomenklatura = (): Array<NamePair> => {
  const frozen = new Map<string, number>()
  for (const r of csv("nomenklatura-name-bench/logicv2-frozen.csv")) {
    frozen.set(`${r.schema}\u0000${r.name1}\u0000${r.name2}`, Number(r.score))
  }
  return csv("nomenklatura-name-bench/cases.csv").map((r) => ({
    schema: r.schema!,
    name1: r.name1!,
    name2: r.name2!,
    match: r.is_match === "true",
    logicV2: frozen.get(`${r.schema}\u0000${r.name1}\u0000${r.name2}`)
  }))
}

/** Organisation schemas of the nomenklatura benchmark. */
export const ORG_SCHEMAS: ReadonlyArray<string> = ["Company", "Organization", "LegalEntity"]
