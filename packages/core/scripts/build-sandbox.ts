/**
 * Builds the sandbox fixture registry (src/data/sandbox-registry.json): 120 fictional businesses
 * with complete contract records, deterministic from fixed seeds. The base of each record is the
 * synthetic generator's; this adds registrations (with registered agents and standing), officers with
 * titles, several addresses with sources, phones, e-mail, reviews, directory listings, social
 * profiles, predicted NAICS (the classifier), and, for six of them, an officer who is on the bundled
 * OFAC SDN list (with the watchlist hits the screener finds). Run: `npm run fixtures`.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Business } from "../src/Business.js"
import { Naics, Registry, Synthetic, Watchlist } from "../src/index.js"

const SIZE = 120
const SEED = 4242
const AGENTS = [
  "Harborline Statutory Agents LLC",
  "Keystone Registered Agent Services Inc",
  "Northgate Corporate Filings LLC",
  "Bluewater Agent Company"
]
const TITLES = ["President", "Secretary", "Treasurer", "Director", "Managing Member", "CEO"]
const SOURCES = ["secretary_of_state", "website", "directory"]
const INDUSTRIES = [
  "management consulting services",
  "retail bakeries",
  "plumbing contractors",
  "software publishers",
  "full-service restaurants",
  "child care services",
  "general freight trucking",
  "tax preparation services",
  "landscaping services",
  "dental offices"
]

const listed = Watchlist.ofacSdnEntries().filter((e) => e.kind === "individual" && e.name.split(/\s+/).length === 2)
const screener = Watchlist.makeScreener(Watchlist.OFAC_SDN, Watchlist.ofacSdnEntries())

const records: Array<Registry.RegistryBusiness> = []
for (let i = 0; i < SIZE; i++) {
  const base = Synthetic.business(SEED, i)
  const r = Synthetic.prng(SEED * 7919 + i)
  const a = base.addresses[0]!
  const domain = (base.website ?? "").replace(/^https:\/\/www\./, "")
  const officers = base.business_officers.map((o, k) => ({
    ...o,
    titles: [TITLES[(i + k) % TITLES.length]!],
    sources: ["secretary_of_state"]
  }))
  if (i % 20 === 7) {
    // Six records carry a listed person among their officers (the sandbox's watchlist cases).
    const e = listed[(i * 37) % listed.length]!
    officers.push({ name: e.name, titles: ["Director"], states: [a.state ?? ""], sources: ["secretary_of_state"] })
  }
  const agentIsPerson = r.next() < 0.25
  const registration = (k: number, state: string, foreign: boolean): Business["registrations"][number] => {
    const active = !(i % 11 === 5 && k === 0)
    return {
      id: Registry.derivedId(base.id, "registration", String(k)) as Business["registrations"][number]["id"],
      name: base.name.toUpperCase(),
      file_number: `${state}${String(100000 + ((i * 7919 + k * 104729) % 900000))}`,
      state,
      status: active ? "ACTIVE" : "INACTIVE",
      issue_date: `${2000 + ((i * 3 + k) % 24)}-${String(1 + (i % 12)).padStart(2, "0")}-${
        String(1 + (i % 27)).padStart(2, "0")
      }` as Business["registrations"][number]["issue_date"],
      inactive_date: active ? null : "2024-06-30" as Business["registrations"][number]["inactive_date"],
      dissolution_date: null,
      address: { ...a, id: Registry.derivedId(base.id, "registration-address", String(k)) as typeof a.id },
      registration_type: foreign ? "FOREIGN" : "DOMESTIC",
      standing: i % 13 === 4 ? "BAD" : active ? "GOOD" : "UNKNOWN",
      registered_agent: {
        name: agentIsPerson ? officers[0]!.name : AGENTS[i % AGENTS.length]!,
        address: { ...a, id: Registry.derivedId(base.id, "agent-address", String(k)) as typeof a.id }
      },
      officers: officers.map((o) => ({ name: o.name, titles: o.titles, states: [state], sources: o.sources }))
    }
  }
  const registrations = [registration(0, a.state ?? "DE", false)]
  if (i % 4 === 0 && a.state !== "DE") registrations.push(registration(1, "DE", true))
  const mailing = {
    ...a,
    id: Registry.derivedId(base.id, "mailing") as Business["addresses"][number]["id"],
    street: `PO Box ${1000 + i}`,
    delivery_type: "PO_BOX",
    sources: ["secretary_of_state"]
  }
  const phone = base.phone_number!
  const record: Registry.RegistryBusiness = {
    ...base,
    addresses: [{ ...a, sources: SOURCES.slice(0, 1 + (i % 3)) }, mailing],
    primary_address: a,
    phone_numbers: [phone],
    email: `info@${domain}`,
    social_profiles: {
      confidence: "HIGH",
      found_on: ["website"],
      metadata: null,
      site: "linkedin",
      url: `https://www.linkedin.com/company/${domain.replace(/\.com$/, "")}`,
      username: domain.replace(/\.com$/, "")
    },
    reviews: [{
      url: `https://reviews.example.com/biz/${domain.replace(/\.com$/, "")}`,
      source: "Example Reviews",
      confidence: "HIGH",
      rating: 3 + ((i * 7) % 20) / 10,
      volume: 5 + (i * 13) % 200,
      summary: null,
      phone_number: phone,
      address: base.address,
      business_website: base.website,
      reviews: [{
        username: `reviewer${i}`,
        text: "Prompt, courteous and fairly priced.",
        date: `2025-${
          String(1 + (i % 12)).padStart(2, "0")
        }-15` as Business["reviews"][number]["reviews"][number]["date"],
        rating: 4 + (i % 2)
      }],
      metadata: null
    }],
    directory_listings: [{
      source: "Example Directory",
      url: `https://directory.example.com/${domain.replace(/\.com$/, "")}`,
      category: null,
      business_name: base.name,
      phone_number: phone,
      email: `info@${domain}`,
      business_website: base.website,
      address: base.address,
      people: officers.slice(0, 1).map((o) => ({ name: o.name, title: o.titles[0]! }))
    }],
    incorporation_date: registrations[0]!.issue_date,
    registrations,
    business_officers: officers,
    // From the name when it says what the business does, else from an assigned line of business.
    predicted_naics: (Naics.predict([base.name], 1).length > 0
      ? Naics.predict([base.name], 1)
      : Naics.predict([INDUSTRIES[i % INDUSTRIES.length]!], 1)),
    watchlist_hits: screener.screen(Watchlist.queriesFor([base.name], officers.map((o) => o.name)))
  }
  records.push(record)
}

for (const r of records) {
  const decoded = Registry.decodeRecord(JSON.parse(JSON.stringify(r)))
  if (decoded._tag === "Left") throw new Error(`${r.name}: ${decoded.left}`)
}
const out = join(import.meta.dirname, "..", "src", "data", "sandbox-registry.json")
writeFileSync(out, JSON.stringify(records))
console.log(
  `wrote ${out}: ${records.length} businesses, ${
    records.filter((r) => r.watchlist_hits.length > 0).length
  } with watchlist hits`
)
