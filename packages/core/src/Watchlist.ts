/**
 * Watchlist screening (DECISIONS section 6): business names, alternative names and officers
 * against a sanctions list (the bundled OFAC SDN snapshot by default), behind the
 * `WatchlistSource` service. Each list name (primary and aliases) is normalised like the input
 * (legal forms stripped from entities, titles and suffixes from people, word order free for
 * people), retrieved through an inverted index of tokens and Double Metaphone keys, and scored
 * with a best-pairs token similarity in the manner of Moov Watchman's Jaro-Winkler, made stricter:
 * a token pairs only when equal or a close typo, numbers must agree, and unpaired tokens on either
 * side count against the score.
 */
import { doubleMetaphone } from "double-metaphone"
import { Context, Effect, Layer } from "effect"
import type { WatchlistHit } from "./Business.js"
import * as BusinessName from "./BusinessName.js"
import ofacData from "./data/ofac-sdn.json" with { type: "json" }
import { FUNCTION_WORDS, isNumeral, jaroWinkler, NAME_PARTICLES } from "./internal/Text.js"
import { topK } from "./internal/TopK.js"
import * as NameMatch from "./NameMatch.js"
import * as PersonName from "./PersonName.js"

/** One listed party. */
export interface WatchlistEntry {
  readonly id: string
  readonly name: string
  readonly kind: "individual" | "entity" | "vessel" | "aircraft"
  readonly programs: ReadonlyArray<string>
  readonly aliases: ReadonlyArray<string>
}

/** A name to screen, and whether it names a business or a person. */
export interface ScreeningQuery {
  readonly name: string
  readonly kind: "business" | "person"
}

/** Score at or above which a listed name is reported as a hit. */
export const HIT_THRESHOLD = 0.9

const MINOR: ReadonlySet<string> = new Set([...FUNCTION_WORDS, ...NAME_PARTICLES])

/** Digits typed for look-alike letters ("ig0r sech1n"), from rigour's confusable pairs. */
const CONFUSABLE: Readonly<Record<string, string>> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "9": "g"
}

/** Tokens of a name as screening compares them. */
export const screeningTokens = (name: string, kind: "business" | "person"): Array<string> => {
  const raw = kind === "business"
    ? [...BusinessName.normalize(name).symbols]
    : ((p) => [p.first, ...p.middles, p.last].filter((t): t is string => t !== undefined))(PersonName.normalize(name))
  const out: Array<string> = []
  for (let t of raw) {
    if (/[a-z]/.test(t) && /\d/.test(t)) t = t.replace(/\d/g, (d) => CONFUSABLE[d] ?? d)
    // Repeated letters ("uun") and repeated words ("sergey sergey shoigu") carry no identity.
    t = t.replace(/([a-z])\1+/g, "$1")
    if (!out.includes(t)) out.push(t)
  }
  return out
}

const tokenSimilarity = (a: string, b: string): number => {
  if (a === b) return 1
  if (isNumeral(a) || isNumeral(b) || a[0] !== b[0]) return 0
  // An initial stands for a name starting with it ("j c juncker").
  if (a.length === 1 || b.length === 1) return 0.9
  if (Math.min(a.length, b.length) < 4) return 0
  const s = jaroWinkler(a, b)
  return s >= 0.88 ? s : 0
}

const pairScore = (a: ReadonlyArray<string>, b: ReadonlyArray<string>, looseExtras: boolean): number => {
  const pairs: Array<[number, number, number]> = []
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      const s = tokenSimilarity(a[i]!, b[j]!)
      if (s > 0) pairs.push([s, i, j])
    }
  }
  pairs.sort((x, y) => y[0] - x[0])
  const usedA = new Uint8Array(a.length)
  const usedB = new Uint8Array(b.length)
  let agree = 0
  let total = 0
  let paired = 0
  for (const [s, i, j] of pairs) {
    if (usedA[i] === 1 || usedB[j] === 1) continue
    usedA[i] = 1
    usedB[j] = 1
    paired++
    // An initial weighs like the letters it stands for, no more.
    const w = a[i]!.length === 1 || b[j]!.length === 1 ? 2 : Math.max(a[i]!.length, b[j]!.length)
    agree += s * w
    total += w
  }
  const weight = (t: string) => (MINOR.has(t) ? 0 : isNumeral(t) ? Math.max(4, t.length) : t.length)
  // A person named by fewer of their names (no middle names): when every name of the shorter side
  // has a partner, and there are at least two, the other side's extra names weigh a quarter.
  const shorter = Math.min(a.length, b.length)
  const extra = looseExtras && paired === shorter && shorter >= 2 ? 0.25 : 1
  for (let i = 0; i < a.length; i++) if (usedA[i] === 0) total += weight(a[i]!) * (a.length > b.length ? extra : 1)
  for (let j = 0; j < b.length; j++) if (usedB[j] === 0) total += weight(b[j]!) * (b.length > a.length ? extra : 1)
  return total === 0 ? 0 : agree / total
}

/**
 * Similarity of two token lists in [0, 1]: best one-to-one pairing of tokens, weighted by length;
 * unpaired tokens (other than particles such as "al", "bin", "of") weigh against the score. Names
 * written with words joined or split ("sergeilavrov") are also compared letter by letter.
 */
export const score = (
  a: ReadonlyArray<string>,
  b: ReadonlyArray<string>,
  kind: "business" | "person" = "business"
): number => {
  if (a.length === 0 || b.length === 0) return 0
  const tokenScore = pairScore(a, b, kind === "person")
  if (tokenScore >= 1 || a.length === b.length) return tokenScore
  const x = a.join("")
  const y = b.join("")
  if (Math.min(x.length, y.length) < 8 || a.some(isNumeral) || b.some(isNumeral)) return tokenScore
  const joined = jaroWinkler(x, y)
  return joined >= 0.95 ? Math.max(tokenScore, joined - 0.04) : tokenScore
}

/**
 * The screening score of two names: for businesses, the better of the token score and the name
 * grader's similarity (descriptor synonyms, typos, joined words: the equivalences `business_name_match`
 * knows); for people, the token score.
 */
export const scoreNames = (a: string, b: string, kind: "business" | "person"): number => {
  const ta = screeningTokens(a, kind)
  const tb = screeningTokens(b, kind)
  const s = score(ta, tb, kind)
  return kind === "business" && s < HIT_THRESHOLD
    ? Math.max(s, NameMatch.similarity(BusinessName.normalize(a), BusinessName.normalize(b)))
    : s
}

/** The screener consults the grader's similarity for this many best-voted listed names per query. */
const GRADER_LIMIT = 3

interface IndexedName {
  readonly entry: number
  readonly name: string
  readonly tokens: ReadonlyArray<string>
  /** The normalised business name (entities only). */
  readonly business: BusinessName.BusinessName | undefined
  /** Letters that count in the score (particles excluded). */
  readonly weight: number
}

const weightOf = (t: ReadonlyArray<string>) => t.reduce((n, x) => n + (MINOR.has(x) ? 0 : Math.max(2, x.length)), 0)

/**
 * The highest score a query could reach against a listed name: at most `reach` letters of the query
 * (those sharing a key with the name) pair up, the rest of both names stays unpaired (the heavier
 * side's surplus weighs a quarter for people, see pairScore). Exact enough to skip names that cannot
 * reach the threshold without scoring them; joined-word matches are covered since they need the
 * same letters on both sides.
 */
const upperBound = (
  reach: number,
  listed: number,
  kind: "business" | "person",
  query: number,
  sameCount: boolean
) => {
  const paired = Math.min(reach, listed)
  if (paired === 0) return 0
  const unpairedQuery = query - paired
  const unpairedListed = listed - paired
  const scale = kind === "person" ? 0.25 : 1
  const total = paired +
    (query > listed ? scale * unpairedQuery + unpairedListed : unpairedQuery + scale * unpairedListed)
  if (sameCount) return paired / total
  // Joined or split words (different word counts) are compared letter by letter: bound those by the
  // letter counts alone.
  return Math.max(paired / total, Math.min(query, listed) / Math.max(query, listed))
}

const keysOf = (t: string): Array<string> => {
  if (MINOR.has(t)) return []
  const keys = [t]
  if (t.length >= 4 && !isNumeral(t)) keys.push(`~${doubleMetaphone(t)[0]}`)
  return keys
}

/** Postings longer than this are not used for retrieval when the name has rarer keys. */
const COMMON_KEY = 400
/** Most listed names scored per screened name. */
const SCORE_LIMIT = 30

/** An index over a list, answering hits for queries. */
export const makeScreener = (list: string, entries: ReadonlyArray<WatchlistEntry>) => {
  const names: Array<IndexedName> = []
  const byKind: Record<"business" | "person", Map<string, Array<number>>> = { business: new Map(), person: new Map() }
  entries.forEach((e, entry) => {
    const kind = e.kind === "individual" ? "person" : "business"
    for (const name of [e.name, ...e.aliases]) {
      const t = screeningTokens(name, kind)
      if (t.length === 0) continue
      const business = kind === "business" ? BusinessName.normalize(name) : undefined
      const id = names.push({ entry, name, tokens: t, weight: weightOf(t), business }) - 1
      const postings = byKind[kind]
      for (const key of new Set(t.flatMap(keysOf))) {
        let p = postings.get(key)
        if (p === undefined) postings.set(key, p = [])
        p.push(id)
      }
    }
  })
  const votes = new Float64Array(names.length)
  const covered = new Int32Array(names.length)
  const screenOne = (q: ScreeningQuery): Array<WatchlistHit> => {
    const t = screeningTokens(q.name, q.kind)
    if (t.length === 0) return []
    const postings = byKind[q.kind]
    // Which query tokens each key stands for (a token's own key and its phonetic key).
    const tokensOfKey = new Map<string, number>()
    t.slice(0, 31).forEach((token, i) => {
      for (const k of keysOf(token)) tokensOfKey.set(k, (tokensOfKey.get(k) ?? 0) | (1 << i))
    })
    const lists = [...tokensOfKey.entries()].flatMap(([k, bits]) => {
      const p = postings.get(k)
      return p === undefined ? [] : [{ p, bits }]
    }).sort((x, y) => x.p.length - y.p.length)
    const rare = lists.filter((l) => l.p.length <= COMMON_KEY)
    const use = rare.length > 0 ? rare : lists.slice(0, 1)
    // Vote by the rarity of shared keys (reused accumulators) and note which query tokens each
    // listed name shares; initials match without sharing a key, so they always count as shared.
    const touched: Array<number> = []
    for (const { bits, p } of use) {
      const idf = Math.log(names.length / p.length) + 1
      for (const id of p) {
        if (votes[id] === 0) touched.push(id)
        votes[id] += idf
        covered[id] |= bits
      }
    }
    let initials = 0
    t.forEach((token, i) => {
      if (token.length === 1 && i < 31) initials |= 1 << i
    })
    const queryWeight = weightOf(t)
    // Token scoring only for names the token score could lift to a hit; the grader (which gives up
    // to half credit to words sharing no key) only for the few best-voted names its looser bound allows.
    const possible: Array<number> = []
    const gradable: Array<number> = []
    for (const id of touched) {
      const mask = covered[id]! | initials
      let reach = 0
      for (let i = 0; i < t.length && i < 31; i++) {
        if (mask & (1 << i)) {
          reach += MINOR.has(t[i]!)
            ? 0
            : Math.max(2, t[i]!.length)
        }
      }
      if (t.length > 31) reach = queryWeight
      const n = names[id]!
      const sameCount = n.tokens.length === t.length
      if (upperBound(reach, n.weight, q.kind, queryWeight, sameCount) >= HIT_THRESHOLD) possible.push(id)
      else if (
        q.kind === "business" &&
        upperBound(reach + 0.5 * (queryWeight - reach), n.weight, q.kind, queryWeight, sameCount) >= HIT_THRESHOLD
      ) gradable.push(id)
    }
    const shortlist = topK(possible, votes, SCORE_LIMIT)
    const forGrader = new Set(q.kind === "business" ? topK([...possible, ...gradable], votes, GRADER_LIMIT) : [])
    for (const id of forGrader) if (!shortlist.includes(id)) shortlist.push(id)
    for (const id of touched) {
      votes[id] = 0
      covered[id] = 0
    }
    const best = new Map<number, { s: number; name: string }>()
    const queryName = q.kind === "business" ? BusinessName.normalize(q.name) : undefined
    shortlist.forEach((id) => {
      const n = names[id]!
      const tokenScore = score(t, n.tokens, q.kind)
      const s = queryName !== undefined && n.business !== undefined && tokenScore < HIT_THRESHOLD && forGrader.has(id)
        ? Math.max(tokenScore, NameMatch.similarity(queryName, n.business))
        : tokenScore
      if (s >= HIT_THRESHOLD && s > (best.get(n.entry)?.s ?? 0)) best.set(n.entry, { s, name: n.name })
    })
    return [...best.entries()].map(([entry, { name, s }]) => ({
      list,
      entity_id: entries[entry]!.id,
      name,
      matched: q.name,
      score: Math.round(s * 1000) / 1000,
      programs: entries[entry]!.programs
    }))
  }
  return {
    list,
    size: names.length,
    screen: (queries: ReadonlyArray<ScreeningQuery>): Array<WatchlistHit> => {
      // Names that normalise alike ("ACME INC", "Acme, Inc.") are screened once; each keeps its hits.
      const byKey = new Map<string, Array<WatchlistHit>>()
      const hits = queries.flatMap((q) => {
        const key = `${q.kind}\u0000${screeningTokens(q.name, q.kind).join(" ")}`
        let found = byKey.get(key)
        if (found === undefined) byKey.set(key, found = screenOne(q))
        return found.map((h) => (h.matched === q.name ? h : { ...h, matched: q.name }))
      })
      // One hit per listed party and input, best first (ties by entity id: deterministic).
      return hits.sort((a, b) =>
        b.score - a.score || a.entity_id.localeCompare(b.entity_id) || a.matched.localeCompare(b.matched)
      )
    }
  }
}

/** Name of the bundled list. */
export const OFAC_SDN = "OFAC SDN"

/** The bundled OFAC SDN snapshot (July 2021, public domain). */
export const ofacSdnEntries = (): ReadonlyArray<WatchlistEntry> =>
  (ofacData as ReadonlyArray<
    { id: string; name: string; type: string; programs: Array<string>; aliases: Array<string> }
  >)
    .map((e) => ({
      id: e.id,
      name: e.name,
      kind: (["individual", "vessel", "aircraft"].includes(e.type) ? e.type : "entity") as WatchlistEntry["kind"],
      programs: e.programs,
      aliases: e.aliases
    }))

/** A sanctions list to screen names against. */
export class WatchlistSource extends Context.Tag("@osiris/core/WatchlistSource")<WatchlistSource, {
  readonly list: string
  readonly screen: (queries: ReadonlyArray<ScreeningQuery>) => Effect.Effect<ReadonlyArray<WatchlistHit>>
}>() {
  /** A source over the given entries (indexed once, when the layer is built). */
  static readonly layerMemory = (list: string, entries: ReadonlyArray<WatchlistEntry>) =>
    Layer.sync(WatchlistSource, () => {
      const screener = makeScreener(list, entries)
      return { list, screen: (queries) => Effect.sync(() => screener.screen(queries)) }
    })

  /** The bundled OFAC SDN list. */
  static readonly layerOfacSdn = Layer.suspend(() => WatchlistSource.layerMemory(OFAC_SDN, ofacSdnEntries()))

  /** An empty list: nothing is ever a hit. */
  static readonly layerEmpty = WatchlistSource.layerMemory("none", [])
}

/** The queries for a search: business names (and alternatives) and officer names. */
export const queriesFor = (
  names: ReadonlyArray<string>,
  officers: ReadonlyArray<string>
): Array<ScreeningQuery> => [
  ...[...new Set(names)].map((name) => ({ name, kind: "business" as const })),
  ...[...new Set(officers)].map((name) => ({ name, kind: "person" as const }))
]
