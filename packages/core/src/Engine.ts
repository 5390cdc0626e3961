/**
 * The verification engine: normalise the request, retrieve and rank candidates, pick the best,
 * grade every indicator, check the TIN, screen the watchlist, score, decide `verified`, and
 * produce the contract's Search fields. Deterministic for the same inputs and services.
 */
import { Context, Effect, Layer } from "effect"
import type { Address } from "./Address.js"
import * as AddressMatch from "./AddressMatch.js"
import type { Business, WatchlistHit } from "./Business.js"
import * as BusinessName from "./BusinessName.js"
import { localDigits, registrableDomain } from "./Contact.js"
import type { Timestamp } from "./Formats.js"
import * as MatchModel from "./MatchModel.js"
import * as NameMatch from "./NameMatch.js"
import * as OfficerMatch from "./OfficerMatch.js"
import { derivedId, layerTinAuthority, prepareRecord, Registry, type RegistryBusiness } from "./Registry.js"
import { Scoring } from "./Scoring.js"
import type * as Search from "./Search.js"
import * as SearchRequest from "./SearchRequest.js"
import * as Tin from "./Tin.js"
import * as UsAddress from "./UsAddress.js"
import * as Watchlist from "./Watchlist.js"
import * as Website from "./Website.js"

/** Where the engine's records live on the wire. */
export interface EngineConfig {
  /** `{base_url}` of the contract, without a trailing slash. */
  readonly baseUrl: string
  /** `{console_url}`; defaults to `{base_url}/console`. */
  readonly consoleUrl?: string
  /** Match probability from which the best candidate counts as found (default: the trained threshold). */
  readonly matchThreshold?: number
}

/** What to verify: a validated request, and for Form 2 the registry id its token stands for. */
export interface VerifyInput {
  readonly request: SearchRequest.CreateSearchRequest
  readonly businessId?: string
}

/** The Search fields the engine decides (everything but ids, times, URLs, user and orderables). */
export interface Verification {
  readonly state: "COMPLETED" | "FAILED"
  readonly name: string
  readonly address: string
  readonly search_address: Address | null
  readonly search_address_validation_level: Search.ValidationLevel | null
  readonly officer_names: ReadonlyArray<string>
  readonly alternative_names: ReadonlyArray<string>
  readonly website: string | null
  readonly phone_number: string | null
  readonly email: string | null
  readonly tin: string | null
  readonly reference_id: string | null
  readonly tin_matched: boolean | null
  readonly tin_match_type: Search.TinMatchType | null
  readonly tin_potential_match: string | null
  readonly watchlist_hits: ReadonlyArray<WatchlistHit>
  readonly business_name_match: Search.NameMatch | null
  readonly business_address_match: Search.AddressMatch | null
  readonly business_officer_match: Search.OfficerMatch | null
  readonly registered_agent_match: Search.AgentMatch | null
  readonly business_website_match: boolean | null
  readonly business_website_redirect_match: boolean | null
  readonly verified: boolean
  readonly scores: ReadonlyArray<Search.Score>
  readonly error: string | null
  readonly warnings: ReadonlyArray<string>
  readonly business: Business | null
  /** The calibrated probability that the business is the one the request names (not on the wire). */
  readonly match_probability: number | null
}

/** The error of a search that found no business (DECISIONS section 6). */
export const NO_MATCH_ERROR = "No match found."

/** The contract Business of a registry record, with its URLs. */
export const toBusiness = (r: RegistryBusiness, config: EngineConfig): Business => {
  const consoleUrl = config.consoleUrl ?? `${config.baseUrl}/console`
  return {
    id: r.id,
    name: r.name,
    url: `${config.baseUrl}/businesses/${r.id}`,
    console_url: `${consoleUrl}/business/${r.id}`,
    address: r.address,
    structure: r.structure,
    addresses: r.addresses,
    phone_numbers: r.phone_numbers,
    phone_number: r.phone_number,
    email: r.email,
    website: r.website,
    social_profiles: r.social_profiles,
    reviews: r.reviews,
    directory_listings: r.directory_listings,
    ein: r.ein,
    incorporation_state: r.incorporation_state,
    incorporation_date: r.incorporation_date,
    months_in_business: r.months_in_business,
    primary_address: r.primary_address,
    alternative_names: r.alternative_names,
    registrations: r.registrations,
    business_officers: r.business_officers,
    predicted_naics: r.predicted_naics,
    watchlist_hits: r.watchlist_hits,
    sec_registrations: r.sec_registrations,
    revenue: r.revenue
  }
}

/** The sanitized search address (its id is derived from its content, so it is deterministic). */
export const searchAddress = (a: UsAddress.UsAddress): Address | null => {
  if (a.validation === "INVALID" && a.number === undefined && a.poBox === undefined) return null
  const street = UsAddress.streetLine(a) ?? null
  const zip = a.zip5 === undefined ? null : a.zip4 === undefined ? a.zip5 : `${a.zip5}-${a.zip4}`
  return {
    id: derivedId("search-address", street ?? "", a.city ?? "", a.state ?? "", zip ?? "") as Address["id"],
    street,
    city: a.city ?? null,
    state: a.state ?? null,
    zip,
    latitude: a.latitude ?? null,
    longitude: a.longitude ?? null,
    rdi: null,
    // Without USPS delivery data, an address is taken as deliverable when it validates FULL.
    deliverable: a.validation === "FULL",
    cmra: a.unitType === "PMB",
    url: null,
    delivery_type: a.poBox !== undefined ? "PO_BOX" : street !== null ? "STREET" : null
  }
}

/** The normalised form of a request for retrieval. */
export const prepareRequest = (
  r: { readonly name: string; readonly alternatives: ReadonlyArray<string> },
  address: UsAddress.UsAddress,
  extras: {
    readonly phone?: string | undefined
    readonly website?: string | undefined
    readonly officers: ReadonlyArray<string>
  }
): MatchModel.Prepared => {
  const phone = extras.phone === undefined ? undefined : localDigits(extras.phone)
  const domain = extras.website === undefined ? undefined : registrableDomain(extras.website)
  return {
    names: [r.name, ...r.alternatives].flatMap(BusinessName.variants),
    addresses: address.validation === "INVALID" && address.number === undefined ? [] : [address],
    phones: phone === undefined ? [] : [phone],
    domains: domain === undefined ? [] : [domain],
    officers: extras.officers.map(OfficerMatch.prepare)
  }
}

const officerNamesOf = (b: RegistryBusiness) => [
  ...new Set([...b.business_officers, ...b.registrations.flatMap((r) => r.officers)].map((o) => o.name))
]

/** Registry records whose own watchlist hits an engine keeps. */
const RECORD_HITS_CACHE = 50_000

const hitKey = (h: WatchlistHit) => `${h.list}\u0000${h.entity_id}\u0000${h.matched}`

/** An autocomplete query: what was typed, optionally a state, how many suggestions. */
export interface SuggestQuery {
  readonly q: string
  readonly state?: string | undefined
  readonly limit: number
}

/** A business suggested for a query, with how its name matches what was typed. */
export interface Suggestion {
  readonly business: RegistryBusiness
  readonly match: Search.NameMatch
  readonly similarity: number
}

/** A business's address as one line (its `address`, else its primary address's parts). */
export const addressLineOf = (b: Pick<Business, "address" | "primary_address">): string =>
  b.address ??
    [b.primary_address?.street, b.primary_address?.city, b.primary_address?.state].filter((x) => x).join(", ")

/** The state of a record's main address. */
const stateOf = (b: RegistryBusiness) => (b.primary_address ?? b.addresses[0])?.state ?? null

/** Runs searches. */
export class Engine extends Context.Tag("@osiris/core/Engine")<Engine, {
  readonly config: EngineConfig
  readonly verify: (input: VerifyInput) => Effect.Effect<Verification>
  /** The registry's business with this id, as the contract's Business. */
  readonly business: (id: string) => Effect.Effect<Business | undefined>
  /** Businesses whose names answer a typed query (autocomplete), best first. */
  readonly suggest: (query: SuggestQuery) => Effect.Effect<ReadonlyArray<Suggestion>>
}>() {
  /** The engine over the registry, TIN authority, watchlist, website resolver and scoring services. */
  static readonly layer = (config: EngineConfig) =>
    Layer.effect(
      Engine,
      Effect.gen(function*() {
        const registry = yield* Registry
        const scoring = yield* Scoring
        const services = yield* Effect.context<Tin.TinAuthority | Watchlist.WatchlistSource | Website.WebsiteResolver>()
        const watchlist = yield* Watchlist.WatchlistSource
        const threshold = config.matchThreshold ?? MatchModel.defaultWeights.threshold ?? 0.5
        // A record's own names and officers always screen the same: keep their hits (bounded, oldest out).
        const recordHits = new Map<string, ReadonlyArray<WatchlistHit>>()
        const screenRecord = (
          record: RegistryBusiness,
          names: ReadonlyArray<string>,
          officers: ReadonlyArray<string>
        ) => {
          // Keyed by what is screened too, so a record whose names or officers change is screened again.
          const key = [record.id, ...names, "", ...officers].join("\u0000")
          const cached = recordHits.get(key)
          if (cached !== undefined) return Effect.succeed(cached)
          return Effect.tap(watchlist.screen(Watchlist.queriesFor(names, officers)), (hits) => {
            if (recordHits.size >= RECORD_HITS_CACHE) recordHits.delete(recordHits.keys().next().value!)
            recordHits.set(key, hits)
          })
        }

        // A plain generator (no tracing span): verify is the hot path (STYLE: plain functions in hot loops).
        const verify = (input: VerifyInput) =>
          Effect.gen(function*() {
            const req = input.request
            const tokenForm = SearchRequest.isBusinessTokenForm(req)
            const officers = req.officer_names ?? []
            const inputAlternatives = req.alternative_names ?? []
            let record: RegistryBusiness | undefined
            let recordPrepared: MatchModel.Prepared | undefined
            let probability: number | null = null
            let name: string
            let addressLine: string
            if (tokenForm) {
              record = input.businessId === undefined ? undefined : yield* registry.get(input.businessId)
              name = record?.name ?? ""
              addressLine = record === undefined ? "" : addressLineOf(record)
              if (record !== undefined) probability = 1
            } else {
              name = req.name
              addressLine = req.address
            }
            const parsed = UsAddress.parse(addressLine)
            if (!tokenForm) {
              const query = prepareRequest({ name, alternatives: inputAlternatives }, parsed, {
                phone: req.phone_number,
                website: req.website,
                officers
              })
              const candidates = yield* registry.search(query, { limit: 5 })
              const best = candidates.find((c) => MatchModel.eligible(c.comparison))
              if (best !== undefined) probability = best.probability
              if (best !== undefined && best.probability >= threshold) {
                record = best.business
                recordPrepared = best.prepared
              }
            }

            const tin = yield* Tin.verify(
              req.tin,
              record === undefined ? undefined : { name: record.name, ein: record.ein }
            )
            const businessNames = record === undefined ? [] : [record.name, ...record.alternative_names]
            const businessOfficers = record === undefined ? [] : officerNamesOf(record)
            const inputHits = yield* watchlist.screen(Watchlist.queriesFor([name, ...inputAlternatives], officers))
            const ownHits = record === undefined ? [] : yield* screenRecord(record, businessNames, businessOfficers)
            const seenHits = new Set(inputHits.map(hitKey))
            const hits = [...inputHits, ...ownHits.filter((h) => !seenHits.has(hitKey(h)))].sort((a, b) =>
              b.score - a.score || a.entity_id.localeCompare(b.entity_id) || a.matched.localeCompare(b.matched)
            )
            const warnings = tin.warning === undefined ? [] : [tin.warning]
            const echo = {
              name,
              address: addressLine,
              search_address: searchAddress(parsed),
              search_address_validation_level: parsed.validation,
              officer_names: officers,
              alternative_names: inputAlternatives,
              website: req.website ?? null,
              phone_number: req.phone_number ?? null,
              email: req.email ?? null,
              tin: req.tin ?? null,
              reference_id: req.reference_id ?? null,
              tin_matched: tin.tin_matched,
              tin_match_type: tin.tin_match_type,
              tin_potential_match: tin.tin_potential_match,
              watchlist_hits: hits
            }
            const topHit = hits.length === 0 ? null : Math.max(...hits.map((h) => h.score))

            if (record === undefined) {
              const { scores, verified } = scoring.evaluate({
                found: false,
                name: null,
                address: null,
                validation: parsed.validation,
                tinMatched: tin.tin_matched,
                tinSubmitted: req.tin !== undefined,
                tinPotentialMatch: tin.tin_potential_match !== null,
                officer: null,
                website: null,
                watchlistTopScore: topHit,
                inactiveRegistration: false,
                cmra: false
              })
              return {
                state: "FAILED",
                ...echo,
                business_name_match: null,
                business_address_match: null,
                business_officer_match: null,
                registered_agent_match: null,
                business_website_match: null,
                business_website_redirect_match: null,
                verified,
                scores,
                error: NO_MATCH_ERROR,
                warnings,
                business: null,
                match_probability: probability
              } satisfies Verification as Verification
            }

            const prepared = recordPrepared ?? prepareRecord(record)
            const nameGrade = NameMatch.grade({ name, alternatives: inputAlternatives }, {
              name: record.name,
              alternatives: record.alternative_names
            })
            const addressGrade = AddressMatch.gradeBest(parsed, prepared.addresses)
            const officerGrade = OfficerMatch.grade(officers, businessOfficers)
            const agents = record.registrations.flatMap((
              r
            ) => (r.registered_agent === null ? [] : [r.registered_agent.name]))
            const agentGrade = OfficerMatch.grade(officers, agents)
            const site = yield* Website.compare(req.website, record.website === null ? [] : [record.website]).pipe(
              Effect.provide(services)
            )
            const businessHits = [...record.watchlist_hits]
            const seen = new Set(businessHits.map(hitKey))
            for (const h of ownHits) {
              if (!seen.has(hitKey(h))) {
                businessHits.push(h)
                seen.add(hitKey(h))
              }
            }
            const inactive = record.registrations.some((r) =>
              /inactive|dissolved|revoked|forfeit/i.test(r.status) || /bad/i.test(r.standing ?? "")
            )
            const { scores, verified } = scoring.evaluate({
              found: true,
              name: nameGrade,
              address: addressGrade,
              validation: parsed.validation,
              tinMatched: tin.tin_matched,
              tinSubmitted: req.tin !== undefined,
              tinPotentialMatch: tin.tin_potential_match !== null,
              officer: officerGrade,
              website: site.match,
              watchlistTopScore: topHit,
              inactiveRegistration: inactive,
              cmra: echo.search_address?.cmra ?? false
            })
            return {
              state: "COMPLETED",
              ...echo,
              business_name_match: nameGrade,
              business_address_match: addressGrade,
              business_officer_match: officerGrade,
              registered_agent_match: agentGrade,
              business_website_match: site.match,
              business_website_redirect_match: site.redirectMatch,
              verified,
              scores,
              error: null,
              warnings,
              business: { ...toBusiness(record, config), watchlist_hits: businessHits },
              match_probability: probability
            } satisfies Verification as Verification
          }).pipe(Effect.provide(services))

        const business = (id: string) =>
          Effect.map(registry.get(id), (r) => (r === undefined ? undefined : toBusiness(r, config)))
        const suggest = (query: SuggestQuery) =>
          Effect.gen(function*() {
            const prepared = prepareRequest({ name: query.q, alternatives: [] }, UsAddress.parse(""), { officers: [] })
            const state = query.state?.toUpperCase()
            const candidates = yield* registry.search(prepared, { limit: Math.max(20, query.limit * 4) })
            return candidates
              .filter((c) => state === undefined || stateOf(c.business) === state)
              .map((c) => {
                const names = { name: c.business.name, alternatives: c.business.alternative_names }
                const typed = { name: query.q, alternatives: [] }
                return {
                  business: c.business,
                  match: NameMatch.grade(typed, names),
                  similarity: NameMatch.bestSimilarity(typed, names)
                }
              })
              .sort((a, b) => b.similarity - a.similarity)
              .slice(0, query.limit)
          })
        return { config, verify, business, suggest }
      })
    )

  /**
   * The engine over a registry with default services, each replaceable: the registry-backed TIN
   * authority, the bundled OFAC SDN list, no redirect knowledge, the default scoring policy.
   */
  static readonly layerDefaults = <RE = never, RR = never>(
    config: EngineConfig,
    registry: Layer.Layer<Registry, RE, RR>,
    overrides: {
      /** The tax authority; it may use the registry (default: the registry's EINs). */
      readonly tin?: Layer.Layer<Tin.TinAuthority, never, Registry>
      readonly watchlist?: Layer.Layer<Watchlist.WatchlistSource>
      readonly websites?: Layer.Layer<Website.WebsiteResolver>
      readonly scoring?: Layer.Layer<Scoring>
    } = {}
  ) =>
    Engine.layer(config).pipe(
      Layer.provide(Layer.mergeAll(
        registry,
        (overrides.tin ?? layerTinAuthority).pipe(Layer.provide(registry)),
        overrides.watchlist ?? Watchlist.WatchlistSource.layerOfacSdn,
        overrides.websites ?? Website.WebsiteResolver.layerNone,
        overrides.scoring ?? Scoring.layer
      ))
    )
}

/** Everything of a Search that the host (or a batch run) decides. */
export interface SearchMeta {
  readonly id: Search.Search["id"]
  readonly created_at: Timestamp
  readonly updated_at: Timestamp
  readonly options: ReadonlyArray<Search.Option>
  readonly orderables: ReadonlyArray<Search.Orderable>
  readonly user: Search.SearchUser
  readonly idempotency_key: string | null
}

/** Assembles the contract Search from a verification and its metadata, in contract field order. */
export const toSearch = (
  v: Omit<Verification, "state"> & { readonly state: Search.SearchState },
  meta: SearchMeta,
  config: EngineConfig
): Search.Search => {
  const consoleUrl = config.consoleUrl ?? `${config.baseUrl}/console`
  const url = `${config.baseUrl}/searches/${meta.id}`
  return {
    id: meta.id,
    options: meta.options,
    state: v.state,
    name: v.name,
    address: v.address,
    created_at: meta.created_at,
    url,
    status_url: `${url}/status`,
    business_url: v.business === null ? null : `${config.baseUrl}/businesses/${v.business.id}/status`,
    orderables: meta.orderables,
    user: meta.user,
    idempotency_key: meta.idempotency_key,
    search_address: v.search_address,
    officer_names: v.officer_names,
    alternative_names: v.alternative_names,
    website: v.website,
    phone_number: v.phone_number,
    email: v.email,
    tin: v.tin,
    reference_id: v.reference_id,
    tin_matched: v.tin_matched,
    tin_match_type: v.tin_match_type,
    tin_potential_match: v.tin_potential_match,
    watchlist_hits: v.watchlist_hits,
    business_name_match: v.business_name_match,
    business_address_match: v.business_address_match,
    business_officer_match: v.business_officer_match,
    registered_agent_match: v.registered_agent_match,
    business_website_match: v.business_website_match,
    business_website_redirect_match: v.business_website_redirect_match,
    search_address_validation_level: v.search_address_validation_level,
    updated_at: meta.updated_at,
    verified: v.verified,
    scores: v.scores,
    error: v.error,
    warnings: v.warnings,
    business: v.business,
    console_url: `${consoleUrl}/searches/${meta.id}`
  }
}

/**
 * The Search as it stands when created, before the engine runs: the request echoed, the address
 * parsed, nothing decided (DECISIONS section 1: what a 202 carries). For a Form-2 request the host
 * passes the name and address of the business the token stands for.
 */
export const pendingSearch = (
  request: SearchRequest.CreateSearchRequest,
  meta: SearchMeta,
  config: EngineConfig,
  resolved?: { readonly name: string; readonly address: string }
): Search.Search => {
  const name = SearchRequest.isBusinessTokenForm(request) ? resolved?.name ?? "" : request.name
  const address = SearchRequest.isBusinessTokenForm(request) ? resolved?.address ?? "" : request.address
  const parsed = UsAddress.parse(address)
  return toSearch(
    {
      state: "PENDING",
      name,
      address,
      search_address: searchAddress(parsed),
      search_address_validation_level: parsed.validation,
      officer_names: request.officer_names ?? [],
      alternative_names: request.alternative_names ?? [],
      website: request.website ?? null,
      phone_number: request.phone_number ?? null,
      email: request.email ?? null,
      tin: request.tin ?? null,
      reference_id: request.reference_id ?? null,
      tin_matched: null,
      tin_match_type: null,
      tin_potential_match: null,
      watchlist_hits: [],
      business_name_match: null,
      business_address_match: null,
      business_officer_match: null,
      registered_agent_match: null,
      business_website_match: null,
      business_website_redirect_match: null,
      verified: false,
      scores: [],
      error: null,
      warnings: [],
      business: null,
      match_probability: null
    },
    meta,
    config
  )
}
