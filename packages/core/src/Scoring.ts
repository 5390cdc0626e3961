/**
 * Scores and the `verified` policy (DECISIONS section 6), one configurable service.
 *
 * KYB (0-100, how well the business is identified) adds points per indicator:
 *   name EXACT 30 / SIMILAR 25; address EXACT 30 / SIMILAR 25 / CITY 10 / STATE 5;
 *   TIN matched 15, not submitted or authority down 7, mismatched 0;
 *   officers EXACT 10 / SIMILAR 7 / not submitted 5; website match 5 / not comparable 3;
 *   address validation FULL 10 / PARTIAL 5.
 * RISK (0-100, higher is safer) starts at 100 and subtracts: a watchlist hit 60 (70 from score
 * 0.95), TIN mismatched 25 (10 more when it belongs to another entity), no business found 30,
 * name NO_MATCH 10, address INVALID 15, an inactive or bad-standing registration 20, a CMRA 10.
 * Ratings: A >= 85, B >= 70, C >= 50, else F.
 * Verified (default policy): a business was found, name and address EXACT or SIMILAR, TIN not
 * mismatched, and the KYB rating is A or B. Configurable: which ratings verify, and whether a
 * watchlist hit blocks verification (it does not by default, as DECISIONS defines `verified`).
 */
import { Config, Context, Effect, Layer } from "effect"
import type { AddressMatch, NameMatch, OfficerMatch, Rating, Score, ValidationLevel } from "./Search.js"

/** What the scores are computed from. */
export interface Indicators {
  readonly found: boolean
  readonly name: NameMatch | null
  readonly address: AddressMatch | null
  readonly validation: ValidationLevel | null
  readonly tinMatched: boolean | null
  readonly tinSubmitted: boolean
  readonly tinPotentialMatch: boolean
  readonly officer: OfficerMatch | null
  readonly website: boolean | null
  readonly watchlistTopScore: number | null
  readonly inactiveRegistration: boolean
  readonly cmra: boolean
}

/** The configurable part of the policy. */
export interface Policy {
  /** KYB ratings that allow `verified` (default A and B). */
  readonly verifiedRatings: ReadonlyArray<Rating>
  /** Whether any watchlist hit prevents `verified` (default false, as DECISIONS defines it). */
  readonly watchlistBlocksVerified: boolean
}

/** The default policy of DECISIONS section 6. */
export const defaultPolicy: Policy = { verifiedRatings: ["A", "B"], watchlistBlocksVerified: false }

/** Rating of a 0-100 score. */
export const rating = (score: number): Rating => (score >= 85 ? "A" : score >= 70 ? "B" : score >= 50 ? "C" : "F")

const clamp = (n: number) => Math.max(0, Math.min(100, Math.round(n)))

/** The KYB score. */
export const kyb = (i: Indicators): number => {
  if (!i.found) return 0
  const name = i.name === "EXACT" ? 30 : i.name === "SIMILAR" ? 25 : 0
  const address = { EXACT: 30, SIMILAR: 25, CITY: 10, STATE: 5, NO_MATCH: 0 }[i.address ?? "NO_MATCH"]
  const tin = i.tinMatched === true ? 15 : i.tinMatched === false ? 0 : 7
  const officer = i.officer === "EXACT" ? 10 : i.officer === "SIMILAR" ? 7 : i.officer === null ? 5 : 0
  const website = i.website === true ? 5 : i.website === null ? 3 : 0
  const validation = i.validation === "FULL" ? 10 : i.validation === "PARTIAL" ? 5 : 0
  return clamp(name + address + tin + officer + website + validation)
}

/** The RISK score (higher is safer). */
export const risk = (i: Indicators): number => {
  let s = 100
  if (i.watchlistTopScore !== null) s -= i.watchlistTopScore >= 0.95 ? 70 : 60
  if (i.tinMatched === false && i.tinSubmitted) s -= i.tinPotentialMatch ? 35 : 25
  if (!i.found) s -= 30
  else if (i.name === "NO_MATCH") s -= 10
  if (i.validation === "INVALID") s -= 15
  if (i.inactiveRegistration) s -= 20
  if (i.cmra) s -= 10
  return clamp(s)
}

/** Scores and verdict for a set of indicators under a policy. */
export const evaluate = (i: Indicators, policy: Policy = defaultPolicy) => {
  const k = kyb(i)
  const r = risk(i)
  const scores: Array<Score> = [
    { type: "KYB", score: k, rating: rating(k) },
    { type: "RISK", score: r, rating: rating(r) }
  ]
  const verified = i.found &&
    (i.name === "EXACT" || i.name === "SIMILAR") &&
    (i.address === "EXACT" || i.address === "SIMILAR") &&
    i.tinMatched !== false &&
    policy.verifiedRatings.includes(rating(k)) &&
    !(policy.watchlistBlocksVerified && i.watchlistTopScore !== null)
  return { scores, verified }
}

/** The scoring service: scores and `verified` for a search's indicators. */
export class Scoring extends Context.Tag("@osiris/core/Scoring")<Scoring, {
  readonly policy: Policy
  readonly evaluate: (i: Indicators) => { readonly scores: ReadonlyArray<Score>; readonly verified: boolean }
}>() {
  /** A scoring service with the given policy. */
  static readonly make = (policy: Policy) => Scoring.of({ policy, evaluate: (i) => evaluate(i, policy) })

  /** The default policy. */
  static readonly layer = Layer.succeed(Scoring, Scoring.make(defaultPolicy))

  /** Policy from configuration: OSIRIS_VERIFIED_RATINGS (default "A,B"), OSIRIS_WATCHLIST_BLOCKS_VERIFIED (default false). */
  static readonly layerConfig = Layer.effect(
    Scoring,
    Effect.gen(function*() {
      const ratings = yield* Config.string("OSIRIS_VERIFIED_RATINGS").pipe(
        Config.withDefault("A,B"),
        Config.withDescription("KYB ratings that allow a search to be verified, comma separated"),
        Config.validate({
          message: "expected ratings from A, B, C, F",
          validation: (s) => s.split(",").every((r) => ["A", "B", "C", "F"].includes(r.trim()))
        })
      )
      const blocks = yield* Config.boolean("OSIRIS_WATCHLIST_BLOCKS_VERIFIED").pipe(
        Config.withDefault(false),
        Config.withDescription("Whether a watchlist hit prevents a search from being verified")
      )
      return Scoring.make({
        verifiedRatings: ratings.split(",").map((r) => r.trim() as Rating),
        watchlistBlocksVerified: blocks
      })
    })
  )
}
