/**
 * A deterministic synthetic registry for benchmarks and tests: business names, addresses, phones,
 * EINs, officers and websites drawn from the bundled dictionaries (given names, descriptor words
 * and legal forms, USPS suffixes, the GeoNames ZIP table, IRS EIN prefixes) with a seeded PRNG,
 * any size. The same seed gives the same records; requests are noisy copies of records.
 */
import einPrefixData from "./data/ein-prefixes.json" with { type: "json" }
import nicknameData from "./data/nicknames.json" with { type: "json" }
import orgSymbolData from "./data/org-symbols.json" with { type: "json" }
import suffixData from "./data/street-suffixes.json" with { type: "json" }
import zipData from "./data/zips.json" with { type: "json" }
import { derivedId, type RegistryBusiness } from "./Registry.js"
import type { NameAddressForm } from "./SearchRequest.js"

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same sequence. */
export const prng = (seed: number) => {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(next() * xs.length)]!
  }
}

/** A seeded random source. */
export type Random = ReturnType<typeof prng>

const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

interface Vocabulary {
  readonly given: ReadonlyArray<string>
  readonly descriptors: ReadonlyArray<string>
  readonly suffixes: ReadonlyArray<string>
  readonly zips: ReadonlyArray<readonly [string, string, string]>
  readonly forms: ReadonlyArray<string>
  readonly einPrefixes: ReadonlyArray<string>
}

let vocabulary: Vocabulary | undefined
const vocab = (): Vocabulary => {
  if (vocabulary !== undefined) return vocabulary
  const given = [...new Set(nicknameData.flatMap(([a, b]) => [a!, b!]))].filter((n) => n.length >= 3).sort()
  const descriptors = [
    ...new Set(
      Object.values(orgSymbolData as Record<string, ReadonlyArray<string>>).flat().filter((w) =>
        /^[a-z]{4,12}$/.test(w)
      )
    )
  ].sort()
  const suffixes = [...new Set(Object.values(suffixData as Record<string, string>))].sort()
  const zips = (zipData as ReadonlyArray<string>).map((l) => l.split("|")).filter((c) => c[2] !== "").map((
    c
  ) => [c[0]!, c[1]!, c[2]!] as const)
  return vocabulary = {
    given,
    descriptors,
    suffixes,
    zips,
    forms: ["Inc", "LLC", "Corp", "Co", "Ltd", "LP", "LLP", "PLLC", "Incorporated", "Company", ""],
    einPrefixes: einPrefixData as ReadonlyArray<string>
  }
}

/** The suffixes most US streets carry. */
const COMMON_SUFFIXES = ["ST", "AVE", "RD", "DR", "BLVD", "LN", "WAY", "CT", "PL", "PKWY", "HWY", "CIR"]

const person = (r: Random, v: Vocabulary) => `${title(r.pick(v.given))} ${title(r.pick(v.given))}son`

/** One synthetic business record (index `i` of the registry made with `seed`). */
export const business = (seed: number, i: number): RegistryBusiness => {
  const v = vocab()
  const r = prng(seed * 1_000_003 + i)
  const owner = title(r.pick(v.given))
  const shape = r.int(0, 3)
  const core = shape === 0
    ? `${owner} ${title(r.pick(v.descriptors))}`
    : shape === 1
    ? `${owner} & ${title(r.pick(v.given))} ${title(r.pick(v.descriptors))}`
    : shape === 2
    ? `${title(r.pick(v.descriptors))} ${title(r.pick(v.given))} ${title(r.pick(v.descriptors))}`
    : `${owner} ${title(r.pick(v.given))}`
  const form = r.pick(v.forms)
  const name = form === "" ? core : `${core} ${form}`
  const [zip, city, state] = r.pick(v.zips)
  const suffix = r.next() < 0.8 ? r.pick(COMMON_SUFFIXES) : r.pick(v.suffixes)
  const street = `${r.int(1, 9999)} ${r.next() < 0.3 ? `${r.pick(["N", "S", "E", "W"])} ` : ""}${
    title(r.pick(v.given))
  } ${suffix}`
  const id = derivedId("synthetic", String(seed), String(i))
  const officers = Array.from({ length: r.int(1, 3) }, () => person(r, v))
  const domain = `${core.toLowerCase().replace(/[^a-z0-9]+/g, "")}.com`
  return {
    id: id as RegistryBusiness["id"],
    name,
    address: `${street}, ${city}, ${state} ${zip}`,
    structure: form === "" ? null : form,
    addresses: [{
      id: derivedId(id, "address") as RegistryBusiness["addresses"][number]["id"],
      street,
      city,
      state,
      zip,
      latitude: null,
      longitude: null,
      rdi: null,
      deliverable: true,
      cmra: false,
      url: null,
      delivery_type: "STREET",
      sources: ["synthetic"]
    }],
    phone_numbers: [],
    phone_number: `+1${r.int(2, 9)}${r.int(10, 99)}${r.int(2, 9)}${String(r.int(0, 999999)).padStart(6, "0")}`,
    email: null,
    website: `https://www.${domain}`,
    social_profiles: null,
    reviews: [],
    directory_listings: [],
    ein: `${r.pick(v.einPrefixes)}-${String(r.int(0, 9999999)).padStart(7, "0")}`,
    incorporation_state: state,
    incorporation_date: null,
    months_in_business: r.int(1, 480),
    primary_address: null,
    alternative_names: [],
    registrations: [],
    business_officers: officers.map((n) => ({
      name: n,
      titles: ["Director"],
      states: [state],
      sources: ["synthetic"]
    })),
    predicted_naics: [],
    watchlist_hits: [],
    sec_registrations: [],
    revenue: null
  }
}

/** A synthetic registry of `size` records. */
export const registry = (seed: number, size: number): Array<RegistryBusiness> =>
  Array.from({ length: size }, (_, i) => business(seed, i))

const typo = (r: Random, s: string) => {
  if (s.length < 5) return s
  const i = r.int(1, s.length - 2)
  return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2)
}

/** A request naming a record, with the noise real requests carry (typos, case, missing parts). */
export const requestFor = (r: Random, b: RegistryBusiness): NameAddressForm => {
  const a = b.addresses[0]!
  const name = r.next() < 0.3 ? typo(r, b.name) : r.next() < 0.5 ? b.name.toUpperCase() : b.name
  const zip = r.next() < 0.2 ? "" : ` ${a.zip}`
  const address = `${a.street}, ${a.city}, ${a.state}${zip}`
  return {
    name,
    address,
    ...(r.next() < 0.5 && b.phone_number !== null ? { phone_number: b.phone_number } : {}),
    ...(r.next() < 0.3 ? { officer_names: [b.business_officers[0]!.name] } : {})
  }
}
