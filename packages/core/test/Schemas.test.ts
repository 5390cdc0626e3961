import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Address, Business, Search } from "../src/index.js"

/** Encoding then decoding gives the same value, also through JSON text (the wire). */
const roundTrips = <A, I>(schema: Schema.Schema<A, I>) => (value: A) => {
  const encoded = Schema.encodeSync(schema)(value)
  expect(Schema.decodeUnknownSync(schema)(encoded)).toStrictEqual(value)
  const wire = JSON.stringify(encoded)
  expect(JSON.stringify(Schema.encodeSync(schema)(Schema.decodeUnknownSync(schema)(JSON.parse(wire))))).toBe(wire)
}

const schemas = {
  Address: Address.Address,
  BusinessAddress: Address.BusinessAddress,
  BusinessOfficer: Business.BusinessOfficer,
  RegisteredAgent: Business.RegisteredAgent,
  Registration: Business.Registration,
  Review: Business.Review,
  DirectoryListing: Business.DirectoryListing,
  SocialProfiles: Business.SocialProfiles,
  WatchlistHit: Business.WatchlistHit,
  PredictedNaics: Business.PredictedNaics,
  SecRegistration: Business.SecRegistration,
  Revenue: Business.Revenue,
  Business: Business.Business,
  Orderable: Search.Orderable,
  Score: Search.Score,
  SearchUser: Search.SearchUser,
  SearchStatus: Search.SearchStatus,
  Search: Search.Search
} as const

describe("wire schemas round-trip", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it.prop(`${name}: decode(encode(x)) = x`, [schema as Schema.Schema<any, any>], ([value]) => {
      roundTrips(schema as Schema.Schema<any, any>)(value)
    }, { fastCheck: { numRuns: name === "Search" || name === "Business" ? 30 : 100 } })
  }
})

describe("wire schemas follow the contract", () => {
  it("Search has every contract field, in contract order", () => {
    expect(Object.keys(Search.Search.fields)).toStrictEqual([
      "id",
      "options",
      "state",
      "name",
      "address",
      "created_at",
      "url",
      "status_url",
      "business_url",
      "orderables",
      "user",
      "idempotency_key",
      "search_address",
      "officer_names",
      "alternative_names",
      "website",
      "phone_number",
      "email",
      "tin",
      "reference_id",
      "tin_matched",
      "tin_match_type",
      "tin_potential_match",
      "watchlist_hits",
      "business_name_match",
      "business_address_match",
      "business_officer_match",
      "registered_agent_match",
      "business_website_match",
      "business_website_redirect_match",
      "search_address_validation_level",
      "updated_at",
      "verified",
      "scores",
      "error",
      "warnings",
      "business",
      "console_url"
    ])
  })

  it("Business and Address have every contract field", () => {
    expect(Object.keys(Business.Business.fields)).toStrictEqual([
      "id",
      "name",
      "url",
      "console_url",
      "address",
      "structure",
      "addresses",
      "phone_numbers",
      "phone_number",
      "email",
      "website",
      "social_profiles",
      "reviews",
      "directory_listings",
      "ein",
      "incorporation_state",
      "incorporation_date",
      "months_in_business",
      "primary_address",
      "alternative_names",
      "registrations",
      "business_officers",
      "predicted_naics",
      "watchlist_hits",
      "sec_registrations",
      "revenue"
    ])
    expect(Object.keys(Address.BusinessAddress.fields)).toStrictEqual([
      "id",
      "street",
      "city",
      "state",
      "zip",
      "latitude",
      "longitude",
      "rdi",
      "deliverable",
      "cmra",
      "url",
      "delivery_type",
      "sources"
    ])
  })

  it("enums are the contract's literal unions", () => {
    expect(Search.Option.literals).toStrictEqual([
      "Order.WebsiteAnalysis",
      "Order.NaicsPrediction",
      "Order.Pep",
      "Order.Enhanced"
    ])
    expect(Search.SearchState.literals).toStrictEqual(["PENDING", "EXECUTING", "COMPLETED", "FAILED", "CANCELLED"])
    expect(Search.NameMatch.literals).toStrictEqual(["NO_MATCH", "SIMILAR", "EXACT"])
    expect(Search.AddressMatch.literals).toStrictEqual(["NO_MATCH", "CITY", "STATE", "SIMILAR", "EXACT"])
    expect(Search.OfficerMatch.literals).toStrictEqual(["NO_MATCH", "SIMILAR", "EXACT"])
    expect(Search.AgentMatch.literals).toStrictEqual(["NO_MATCH", "SIMILAR", "EXACT"])
    expect(Search.ValidationLevel.literals).toStrictEqual(["FULL", "PARTIAL", "INVALID"])
    expect(Search.TinMatchType.literals).toStrictEqual(["SSN", "EIN", "UNKNOWN"])
  })
})
