/**
 * The contract's Search resource (the response of creating a search) with its enums, Orderable,
 * Score and user. Fields that only exist once a search has run, or only when the input carried
 * them, are `null` until then (DECISIONS section 6).
 */
import { Schema } from "effect"
import { Address } from "./Address.js"
import { Business, WatchlistHit } from "./Business.js"
import { OrderableId, SearchId, Timestamp, UrlString, UserId } from "./Formats.js"

/** Optional features a search can order. */
export const Option = Schema.Literal("Order.WebsiteAnalysis", "Order.NaicsPrediction", "Order.Pep", "Order.Enhanced")
/** @see Option */
export type Option = typeof Option.Type

/** Every option, in contract order. */
export const options: ReadonlyArray<Option> = Option.literals

/** Lifecycle state of a search. */
export const SearchState = Schema.Literal("PENDING", "EXECUTING", "COMPLETED", "FAILED", "CANCELLED")
/** @see SearchState */
export type SearchState = typeof SearchState.Type

/** How the input name matches the business name (or one of its alternative names). */
export const NameMatch = Schema.Literal("NO_MATCH", "SIMILAR", "EXACT")
/** @see NameMatch */
export type NameMatch = typeof NameMatch.Type

/** How the input address matches the best of the business's addresses. */
export const AddressMatch = Schema.Literal("NO_MATCH", "CITY", "STATE", "SIMILAR", "EXACT")
/** @see AddressMatch */
export type AddressMatch = typeof AddressMatch.Type

/** How the input officer names match the business's officers. */
export const OfficerMatch = Schema.Literal("NO_MATCH", "SIMILAR", "EXACT")
/** @see OfficerMatch */
export type OfficerMatch = typeof OfficerMatch.Type

/** How the input officer names match the registered agents. */
export const AgentMatch = Schema.Literal("NO_MATCH", "SIMILAR", "EXACT")
/** @see AgentMatch */
export type AgentMatch = typeof AgentMatch.Type

/** How completely the input address could be normalised. */
export const ValidationLevel = Schema.Literal("FULL", "PARTIAL", "INVALID")
/** @see ValidationLevel */
export type ValidationLevel = typeof ValidationLevel.Type

/** Kind of the submitted TIN. */
export const TinMatchType = Schema.Literal("SSN", "EIN", "UNKNOWN")
/** @see TinMatchType */
export type TinMatchType = typeof TinMatchType.Type

/** Score kinds (DECISIONS section 6). */
export const ScoreType = Schema.Literal("KYB", "RISK")
/** @see ScoreType */
export type ScoreType = typeof ScoreType.Type

/** Score ratings: A (>= 85), B (>= 70), C (>= 50), F. */
export const Rating = Schema.Literal("A", "B", "C", "F")
/** @see Rating */
export type Rating = typeof Rating.Type

/** One of the service's ratings. */
export const Score = Schema.Struct({
  type: ScoreType,
  score: Schema.Finite.pipe(Schema.between(0, 100)),
  rating: Rating
}).annotations({ identifier: "Score" })
/** @see Score */
export type Score = typeof Score.Type

/** An associated request created by ordering an option. */
export const Orderable = Schema.Struct({
  id: OrderableId,
  option: Option,
  type: Schema.String,
  url: UrlString
}).annotations({ identifier: "Orderable" })
/** @see Orderable */
export type Orderable = typeof Orderable.Type

/** The user who performed the search. */
export const SearchUser = Schema.Struct({
  id: UserId,
  first_name: Schema.String,
  last_name: Schema.String,
  email: Schema.String
}).annotations({ identifier: "SearchUser" })
/** @see SearchUser */
export type SearchUser = typeof SearchUser.Type

const NullableString = Schema.NullOr(Schema.String)

/** A business search, field for field as in the contract. */
export const Search = Schema.Struct({
  id: SearchId,
  options: Schema.Array(Option),
  state: SearchState,
  name: Schema.String,
  address: Schema.String,
  created_at: Timestamp,
  url: UrlString,
  status_url: UrlString,
  business_url: Schema.NullOr(UrlString),
  orderables: Schema.Array(Orderable),
  user: SearchUser,
  idempotency_key: NullableString,
  search_address: Schema.NullOr(Address),
  officer_names: Schema.Array(Schema.String),
  alternative_names: Schema.Array(Schema.String),
  website: NullableString,
  phone_number: NullableString,
  email: NullableString,
  tin: NullableString,
  reference_id: NullableString,
  tin_matched: Schema.NullOr(Schema.Boolean),
  tin_match_type: Schema.NullOr(TinMatchType),
  tin_potential_match: NullableString,
  watchlist_hits: Schema.Array(WatchlistHit),
  business_name_match: Schema.NullOr(NameMatch),
  business_address_match: Schema.NullOr(AddressMatch),
  business_officer_match: Schema.NullOr(OfficerMatch),
  registered_agent_match: Schema.NullOr(AgentMatch),
  business_website_match: Schema.NullOr(Schema.Boolean),
  business_website_redirect_match: Schema.NullOr(Schema.Boolean),
  search_address_validation_level: Schema.NullOr(ValidationLevel),
  updated_at: Timestamp,
  verified: Schema.Boolean,
  scores: Schema.Array(Score),
  error: NullableString,
  warnings: Schema.Array(Schema.String),
  business: Schema.NullOr(Business),
  console_url: UrlString
}).annotations({ identifier: "Search" })
/** @see Search */
export type Search = typeof Search.Type

/** `GET /searches/{id}/status` (DECISIONS section 4). */
export const SearchStatus = Schema.Struct({
  id: SearchId,
  state: SearchState,
  updated_at: Timestamp
}).annotations({ identifier: "SearchStatus" })
/** @see SearchStatus */
export type SearchStatus = typeof SearchStatus.Type
