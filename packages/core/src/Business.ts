/**
 * The contract's Business record and everything nested in it: officers, registrations with
 * their registered agent, reviews, directory listings, social profiles, predicted NAICS codes,
 * watchlist hits, SEC registrations and revenue. Fields the contract leaves without a shape are
 * decided in DECISIONS section 6 or documented here.
 */
import { Schema } from "effect"
import { Address, BusinessAddress } from "./Address.js"
import { BusinessId, CalendarDate, RegistrationId, UrlString } from "./Formats.js"

const NullableString = Schema.NullOr(Schema.String)

/** Keys of free-form maps; `__proto__` is refused because assigning it would replace the prototype. */
const MapKey = Schema.String.pipe(Schema.filter((k) => k !== "__proto__", { message: () => "reserved key" }))

/** A person who runs the business, with the titles, states and sources they were found under. */
export const BusinessOfficer = Schema.Struct({
  name: Schema.String,
  titles: Schema.Array(Schema.String),
  states: Schema.Array(Schema.String),
  sources: Schema.Array(Schema.String)
}).annotations({ identifier: "BusinessOfficer" })
/** @see BusinessOfficer */
export type BusinessOfficer = typeof BusinessOfficer.Type

/** The registered agent of a registration. */
export const RegisteredAgent = Schema.Struct({
  name: Schema.String,
  address: Schema.NullOr(Address)
}).annotations({ identifier: "RegisteredAgent" })
/** @see RegisteredAgent */
export type RegisteredAgent = typeof RegisteredAgent.Type

/** A filing with a secretary of state. `status` is e.g. ACTIVE/INACTIVE, `standing` GOOD/BAD/UNKNOWN. */
export const Registration = Schema.Struct({
  id: RegistrationId,
  name: Schema.String,
  file_number: NullableString,
  state: Schema.String,
  status: Schema.String,
  issue_date: Schema.NullOr(CalendarDate),
  inactive_date: Schema.NullOr(CalendarDate),
  dissolution_date: Schema.NullOr(CalendarDate),
  address: Schema.NullOr(Address),
  registration_type: NullableString,
  standing: NullableString,
  registered_agent: Schema.NullOr(RegisteredAgent),
  officers: Schema.Array(BusinessOfficer)
}).annotations({ identifier: "Registration" })
/** @see Registration */
export type Registration = typeof Registration.Type

/** One review inside a review source. */
export const ReviewItem = Schema.Struct({
  username: Schema.String,
  text: Schema.String,
  date: CalendarDate,
  rating: Schema.Finite
}).annotations({ identifier: "ReviewItem" })
/** @see ReviewItem */
export type ReviewItem = typeof ReviewItem.Type

/** What a review source says about the place itself. */
export const ReviewMetadata = Schema.Struct({
  open_state: NullableString,
  operating_hours: Schema.Record({ key: MapKey, value: Schema.String }),
  description: NullableString,
  types: Schema.Array(Schema.String),
  service_options: Schema.Record({ key: MapKey, value: Schema.Boolean })
}).annotations({ identifier: "ReviewMetadata" })
/** @see ReviewMetadata */
export type ReviewMetadata = typeof ReviewMetadata.Type

/** Reviews of the business on one source. */
export const Review = Schema.Struct({
  url: Schema.String,
  source: Schema.String,
  confidence: Schema.String,
  rating: Schema.Finite,
  volume: Schema.Int,
  summary: NullableString,
  phone_number: NullableString,
  address: NullableString,
  business_website: NullableString,
  reviews: Schema.Array(ReviewItem),
  metadata: Schema.NullOr(ReviewMetadata)
}).annotations({ identifier: "Review" })
/** @see Review */
export type Review = typeof Review.Type

/** A person named in a directory listing. */
export const DirectoryPerson = Schema.Struct({
  name: Schema.String,
  title: Schema.String
}).annotations({ identifier: "DirectoryPerson" })

/** A listing of the business in an online directory. */
export const DirectoryListing = Schema.Struct({
  source: Schema.String,
  url: Schema.String,
  category: NullableString,
  business_name: NullableString,
  phone_number: NullableString,
  email: NullableString,
  business_website: NullableString,
  address: NullableString,
  people: Schema.Array(DirectoryPerson)
}).annotations({ identifier: "DirectoryListing" })
/** @see DirectoryListing */
export type DirectoryListing = typeof DirectoryListing.Type

/** The business's social profile (the contract types it as one object). */
export const SocialProfiles = Schema.Struct({
  confidence: NullableString,
  found_on: Schema.Array(Schema.String),
  metadata: Schema.NullOr(Schema.Record({ key: MapKey, value: Schema.String })),
  site: Schema.String,
  url: Schema.String,
  username: Schema.String
}).annotations({ identifier: "SocialProfiles" })
/** @see SocialProfiles */
export type SocialProfiles = typeof SocialProfiles.Type

/** A sanctions-list hit: list, entity id, listed name, the input that matched, score 0-1, programs. */
export const WatchlistHit = Schema.Struct({
  list: Schema.String,
  entity_id: Schema.String,
  name: Schema.String,
  matched: Schema.String,
  score: Schema.Finite.pipe(Schema.between(0, 1)),
  programs: Schema.Array(Schema.String)
}).annotations({ identifier: "WatchlistHit" })
/** @see WatchlistHit */
export type WatchlistHit = typeof WatchlistHit.Type

/** A predicted 2022 NAICS code with its official title and a confidence 0-1. */
export const PredictedNaics = Schema.Struct({
  code: Schema.String.pipe(Schema.pattern(/^\d{2,6}$/)),
  title: Schema.String,
  confidence: Schema.Finite.pipe(Schema.between(0, 1))
}).annotations({ identifier: "PredictedNaics" })
/** @see PredictedNaics */
export type PredictedNaics = typeof PredictedNaics.Type

/** A registration with the SEC (EDGAR). */
export const SecRegistration = Schema.Struct({
  cik: Schema.String,
  name: Schema.String,
  sic: NullableString,
  url: NullableString
}).annotations({ identifier: "SecRegistration" })
/** @see SecRegistration */
export type SecRegistration = typeof SecRegistration.Type

/** An estimate of yearly revenue. */
export const Revenue = Schema.Struct({
  amount: Schema.Finite,
  currency: Schema.String,
  year: Schema.NullOr(Schema.Int),
  source: NullableString
}).annotations({ identifier: "Revenue" })
/** @see Revenue */
export type Revenue = typeof Revenue.Type

/** The business a search identified. Unknown scalars are `null`, unknown lists empty. */
export const Business = Schema.Struct({
  id: BusinessId,
  name: Schema.String,
  url: UrlString,
  console_url: UrlString,
  address: NullableString,
  structure: NullableString,
  addresses: Schema.Array(BusinessAddress),
  phone_numbers: Schema.Array(Schema.String),
  phone_number: NullableString,
  email: NullableString,
  website: NullableString,
  social_profiles: Schema.NullOr(SocialProfiles),
  reviews: Schema.Array(Review),
  directory_listings: Schema.Array(DirectoryListing),
  ein: NullableString,
  incorporation_state: NullableString,
  incorporation_date: Schema.NullOr(CalendarDate),
  months_in_business: Schema.NullOr(Schema.NonNegativeInt),
  primary_address: Schema.NullOr(Address),
  alternative_names: Schema.Array(Schema.String),
  registrations: Schema.Array(Registration),
  business_officers: Schema.Array(BusinessOfficer),
  predicted_naics: Schema.Array(PredictedNaics),
  watchlist_hits: Schema.Array(WatchlistHit),
  sec_registrations: Schema.Array(SecRegistration),
  revenue: Schema.NullOr(Revenue)
}).annotations({ identifier: "Business" })
/** @see Business */
export type Business = typeof Business.Type

/** `GET /businesses/{id}/status`: a business's standing summarised from its registrations. */
export interface BusinessStatus {
  readonly id: Business["id"]
  readonly name: string
  /** ACTIVE when any registration is active; else INACTIVE; UNKNOWN without registrations. */
  readonly status: string
  /** Among active registrations: BAD if any is in bad standing, else GOOD if any is good, else UNKNOWN. */
  readonly standing: string
  /** The latest filing date known (issue, inactive or dissolution), as a timestamp; null without any. */
  readonly updated_at: string | null
}

/** Summarises a business's registrations (DECISIONS section 4). */
export const statusOf = (b: Business): BusinessStatus => {
  const regs = b.registrations
  const active = regs.filter((r) => r.status.toUpperCase() === "ACTIVE")
  const standings = (active.length > 0 ? active : regs).map((r) => (r.standing ?? "").toUpperCase())
  const dates = regs.flatMap((r) => [r.issue_date, r.inactive_date, r.dissolution_date]).filter((d) => d !== null)
  const latest = dates.length === 0 ? null : dates.reduce((a, d) => (d > a ? d : a))
  return {
    id: b.id,
    name: b.name,
    status: regs.length === 0 ? "UNKNOWN" : active.length > 0 ? "ACTIVE" : "INACTIVE",
    standing: standings.includes("BAD") ? "BAD" : standings.includes("GOOD") ? "GOOD" : "UNKNOWN",
    updated_at: latest === null ? null : `${latest}T00:00:00.000000`
  }
}
