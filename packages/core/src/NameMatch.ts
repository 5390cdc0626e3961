/**
 * `business_name_match` (DECISIONS section 6): EXACT when the names are equal after
 * normalisation with equivalent legal forms (or a form on one side only); SIMILAR for typos,
 * abbreviations, word order, a different legal form, or an exact alternative/DBA name; otherwise
 * NO_MATCH. The input name and alternative names are compared with the business name and all of
 * its alternative names.
 */
import * as BusinessName from "./BusinessName.js"
import { editDistance, FUNCTION_WORDS, isNumeral, jaroWinkler } from "./internal/Text.js"
import type { NameMatch } from "./Search.js"

/** Similarity at or above which two different names count as SIMILAR (chosen on training data; docs/ACCURACY.md). */
export const SIMILAR_THRESHOLD = 0.9

const initials = (t: ReadonlyArray<string>) => t.map((x) => x[0]).join("")

const MINOR = FUNCTION_WORDS

/** How alike two tokens are: 1 equal, 0.92 a typo (one edit, two from 8 letters), else a weak share. */
const tokenScore = (a: string, b: string): number => {
  if (a === b) return 1
  if (isNumeral(a) || isNumeral(b)) return 0
  const n = Math.min(a.length, b.length)
  if (n >= 4) {
    const d = editDistance(a, b, 2)
    if (d <= 1 || (d === 2 && n >= 8 && jaroWinkler(a, b) >= 0.93)) return 0.92
  }
  // Unrelated words earn nothing; merely alike ones (not a typo) earn a little.
  const jw = jaroWinkler(a, b)
  return jw >= 0.8 ? 0.5 * jw : 0
}

/**
 * Best-pairs token agreement: each token of the shorter name is paired with its best unused token
 * of the other, weighted by length; unpaired tokens (other than minor words) count as disagreement.
 * Returns the agreement and the share of the shorter name that found a partner (containment).
 */
const tokenAgreement = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => {
  if (a.length !== b.length) return pairUp(a.length < b.length ? a : b, a.length < b.length ? b : a)
  // Same length: pair from both sides and keep the better, so the measure is symmetric.
  const x = pairUp(a, b)
  const y = pairUp(b, a)
  return { agreement: Math.max(x.agreement, y.agreement), containment: Math.max(x.containment, y.containment) }
}

const pairUp = (short: ReadonlyArray<string>, long: ReadonlyArray<string>) => {
  const used = new Uint8Array(long.length)
  let agree = 0
  let total = 0
  let shortMatched = 0
  let shortTotal = 0
  for (const t of short) {
    let best = -1
    let bestJ = -1
    for (let j = 0; j < long.length; j++) {
      if (used[j] === 1) continue
      const s = tokenScore(t, long[j]!)
      if (s > best) {
        best = s
        bestJ = j
      }
    }
    const w = Math.max(t.length, bestJ >= 0 ? long[bestJ]!.length : 0)
    if (bestJ >= 0 && (best >= 0.92 || !MINOR.has(t))) {
      used[bestJ] = 1
      agree += best * w
      total += w
      if (best >= 0.92) shortMatched += t.length
    } else if (!MINOR.has(t)) {
      total += isNumeral(t) ? Math.max(t.length, 4) : t.length
    }
    if (!MINOR.has(t)) shortTotal += t.length
  }
  for (let j = 0; j < long.length; j++) {
    const t = long[j]!
    if (used[j] === 0 && !MINOR.has(t)) total += isNumeral(t) ? Math.max(t.length, 4) : t.length
  }
  return { agreement: total === 0 ? 0 : agree / total, containment: shortTotal === 0 ? 0 : shortMatched / shortTotal }
}

/** Similarity of two normalised names in [0, 1] and the containment of the shorter in the longer. */
export const compare = (
  a: BusinessName.BusinessName,
  b: BusinessName.BusinessName
): { readonly similarity: number; readonly containment: number } => {
  if (a.tokens.length === 0 || b.tokens.length === 0) return { similarity: 0, containment: 0 }
  if (a.key === b.key) return { similarity: 1, containment: 1 }
  const compactA = a.compact
  const compactB = b.compact
  const shortcut = (s: number) => ({ similarity: s, containment: 1 })
  if (compactA === compactB) return shortcut(0.98)
  if (a.sorted === b.sorted) return shortcut(0.97)
  if (a.symbolKey === b.symbolKey || a.sortedSymbolKey === b.sortedSymbolKey) return shortcut(0.96)
  // An initialism of at least three letters: "IBM" ~ "International Business Machines".
  if (a.tokens.length === 1 && b.tokens.length >= 3 && compactA === initials(b.tokens)) return shortcut(0.92)
  if (b.tokens.length === 1 && a.tokens.length >= 3 && compactB === initials(a.tokens)) return shortcut(0.92)
  const t = tokenAgreement(a.symbols, b.symbols)
  // A typo that splits or joins words ("mc donalds" ~ "mcdonalds").
  const n = Math.min(compactA.length, compactB.length)
  if (
    n >= 6 && Math.abs(compactA.length - compactB.length) <= 1 && editDistance(compactA, compactB, 1) <= 1 &&
    a.tokens.filter(isNumeral).join() === b.tokens.filter(isNumeral).join()
  ) return { similarity: Math.max(0.93, t.agreement), containment: Math.max(t.containment, 0.99) }
  return { similarity: t.agreement, containment: t.containment }
}

/** Similarity of two normalised names in [0, 1]; 1 means the same core name. */
export const similarity = (a: BusinessName.BusinessName, b: BusinessName.BusinessName): number =>
  compare(a, b).similarity

/** Share of the shorter name's tokens found (equal or with a typo) in the other name. */
export const containment = (a: BusinessName.BusinessName, b: BusinessName.BusinessName): number =>
  compare(a, b).containment

/**
 * Every name a party goes by: each given name split on "d/b/a", "a.k.a." and similar phrases.
 * Parenthetical qualifiers stay: for a grade, "Bank of China (Hong Kong)" and "Bank of China
 * (Singapore)" are different legal entities (retrieval also tries the bare name; see MatchModel).
 */
const namesOf = (name: string, alternatives: ReadonlyArray<string>): Array<BusinessName.BusinessName> =>
  [name, ...alternatives].flatMap(BusinessName.splitNames).map(BusinessName.normalize).filter((n) =>
    n.tokens.length > 0
  )

/** One side of a name comparison. */
export interface Names {
  readonly name: string
  readonly alternatives: ReadonlyArray<string>
}

/** The best similarity between any input name and any business name (for ranking). */
export const bestSimilarity = (input: Names, business: Names): number => {
  let best = 0
  for (const a of namesOf(input.name, input.alternatives)) {
    for (const b of namesOf(business.name, business.alternatives)) {
      const s = similarity(a, b)
      if (s > best) best = s
      if (best === 1) return 1
    }
  }
  return best
}

/** Grades the input names against the business names. */
export const grade = (input: Names, business: Names): NameMatch => {
  const a = BusinessName.normalize(input.name)
  const b = BusinessName.normalize(business.name)
  // Equal after normalisation, spacing included ("C T Corp" = "CT Corp"), with equivalent legal forms.
  if (a.tokens.length > 0 && a.compact === b.compact && BusinessName.legalFormsEquivalent(a, b)) {
    return "EXACT"
  }
  return bestSimilarity(input, business) >= SIMILAR_THRESHOLD ? "SIMILAR" : "NO_MATCH"
}
