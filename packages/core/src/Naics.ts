/**
 * NAICS prediction: a classifier over the official NAICS 2022 six-digit industries, each a document
 * made of its title and its entries in the Census Bureau's NAICS index (about 20,000 entries such
 * as "Bakeries, retail" or "Tax return preparation services"). Features are words folded to ASCII
 * and stemmed (Porter, the `stemmer` package) and pairs of adjacent words, ranked by Okapi BM25
 * over documents made of the title (counted twice) and the index entries. `confidence` is the
 * industry's score as a share of the most the query could score. Legal forms and function words
 * carry no weight.
 */
import { stemmer } from "stemmer"
import * as BusinessName from "./BusinessName.js"
import naicsData from "./data/naics.json" with { type: "json" }
import { fold, FUNCTION_WORDS } from "./internal/Text.js"

/** A predicted industry. */
export interface Prediction {
  readonly code: string
  readonly title: string
  readonly confidence: number
}

interface Industry {
  readonly code: string
  readonly title: string
  readonly entries: ReadonlyArray<string>
}

/** Words of NAICS titles that say nothing about the industry. */
const GENERIC = new Set(["except", "other", "all", "miscellaneous", "related", "activities", "n.e.c", "nec"])

/** The stemmed content words of a text. */
export const words = (text: string): Array<string> => {
  const out: Array<string> = []
  for (const w of fold(text).split(/[^a-z0-9]+/)) {
    if (w.length < 2 || FUNCTION_WORDS.has(w) || GENERIC.has(w) || /^\d+$/.test(w)) continue
    out.push(stemmer(w))
  }
  return out
}

interface Index {
  readonly industries: ReadonlyArray<Industry>
  /** feature -> the industries that have it, with its weight there. */
  readonly postings: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>
  readonly idf: ReadonlyMap<string, number>
}

let built: Index | undefined

/** Words and adjacent pairs of words ("child care", "auto repair"): the features of a text. */
const features = (text: string): Array<string> => {
  const ws = words(text)
  const out = [...ws]
  for (let i = 1; i < ws.length; i++) out.push(`${ws[i - 1]} ${ws[i]}`)
  return out
}

const K1 = 1.2
const B = 0.75

const index = (): Index => {
  if (built !== undefined) return built
  const industries = naicsData as ReadonlyArray<Industry>
  // Okapi BM25 over documents made of the title (twice) and the index entries.
  const docs = industries.map((industry) => {
    const counts = new Map<string, number>()
    let length = 0
    for (const text of [industry.title, industry.title, ...industry.entries]) {
      for (const f of features(text)) {
        counts.set(f, (counts.get(f) ?? 0) + 1)
        length++
      }
    }
    return { counts, length }
  })
  const average = docs.reduce((a, d) => a + d.length, 0) / docs.length
  const postings = new Map<string, Array<readonly [number, number]>>()
  docs.forEach(({ counts, length }, i) => {
    for (const [f, tf] of counts) {
      const weight = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / average))
      const list = postings.get(f)
      if (list === undefined) postings.set(f, [[i, weight]])
      else list.push([i, weight])
    }
  })
  const idf = new Map<string, number>()
  for (const [f, list] of postings) {
    idf.set(f, Math.log(1 + (industries.length - list.length + 0.5) / (list.length + 0.5)))
  }
  built = { industries, postings, idf }
  return built
}

/** The `limit` most likely industries for a business's names (and any other descriptive text). */
export const predict = (texts: ReadonlyArray<string>, limit = 3): Array<Prediction> => {
  const { idf, industries, postings } = index()
  const query = new Set<string>()
  for (const t of texts) {
    // The legal form ("LLC", "Inc") is not part of what the business does.
    const core = BusinessName.normalize(t).key
    for (const f of features(core.length > 0 ? core : t)) query.add(f)
  }
  let total = 0
  const scores = new Map<number, number>()
  for (const f of query) {
    const weight = idf.get(f)
    if (weight === undefined) continue
    total += (K1 + 1) * weight
    for (const [i, w] of postings.get(f)!) scores.set(i, (scores.get(i) ?? 0) + w * weight)
  }
  if (total === 0) return []
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1] || industries[a[0]]!.code.localeCompare(industries[b[0]]!.code))
    .slice(0, limit)
    .map(([i, score]) => ({
      code: industries[i]!.code,
      title: industries[i]!.title,
      confidence: Math.round((score / total) * 1000) / 1000
    }))
}
