/**
 * Text primitives shared by the normalisers: Unicode folding and transliteration (any-ascii),
 * tokenisation, number words, and the string similarities the matchers use.
 */
import anyAscii from "any-ascii"

const ASCII = /^[\x00-\x7f]*$/

/** NFKC, transliterated to ASCII, lower case. "Müller & Söhne" -> "muller & sohne". */
export const fold = (s: string): string => (ASCII.test(s) ? s : anyAscii(s.normalize("NFKC"))).toLowerCase()

const NUMBER_WORDS: ReadonlyMap<string, string> = new Map(Object.entries({
  zero: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
  eleven: "11",
  twelve: "12",
  first: "1st",
  second: "2nd",
  third: "3rd",
  fourth: "4th",
  fifth: "5th",
  sixth: "6th",
  seventh: "7th",
  eighth: "8th",
  ninth: "9th",
  tenth: "10th",
  twenty: "20",
  thirty: "30",
  forty: "40",
  fourty: "40",
  fifty: "50",
  sixty: "60",
  seventy: "70",
  eighty: "80",
  ninety: "90"
}))

/**
 * Folded tokens: `&` becomes "and", apostrophes and dots inside words disappear ("McDonald's" ->
 * "mcdonalds", "L.L.C." -> "llc"), any other punctuation separates, number words become digits.
 */
export const tokens = (s: string): Array<string> => {
  // A capitalised suffix glued to a word is usually a legal form: "SiemensAG" -> "Siemens AG".
  const folded = fold(s.replace(/([a-z]{2,})([A-Z]{2,})\b/g, "$1 $2"))
    .replace(/&/g, " and ")
    .replace(/['`\u2019]/g, "")
    .replace(/([a-z0-9])\.(?=[a-z0-9])/g, "$1")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
  if (folded.length === 0) return []
  const out: Array<string> = []
  for (const raw of folded.split(" ")) {
    const t = NUMBER_WORDS.get(raw) ?? raw
    // "forty four" -> "44": a tens word followed by a units word.
    const prev = out[out.length - 1]
    if (prev !== undefined && /^[2-9]0$/.test(prev) && /^[1-9]$/.test(t)) out[out.length - 1] = prev[0] + t
    else out.push(t)
  }
  return out
}

// Scratch buffers reused across calls (the matchers run in hot loops; no allocation per call).
let flagsA = new Uint8Array(64)
let flagsB = new Uint8Array(64)
let row0 = new Int32Array(64)
let row1 = new Int32Array(64)
let row2 = new Int32Array(64)

const ensure = (n: number) => {
  if (n <= flagsA.length) return
  const size = Math.max(n, flagsA.length * 2)
  flagsA = new Uint8Array(size)
  flagsB = new Uint8Array(size)
  row0 = new Int32Array(size)
  row1 = new Int32Array(size)
  row2 = new Int32Array(size)
}

/** Jaro-Winkler similarity in [0, 1] (prefix scale 0.1, up to 4 characters). */
export const jaroWinkler = (a: string, b: string): number => {
  if (a === b) return 1
  const la = a.length
  const lb = b.length
  if (la === 0 || lb === 0) return 0
  ensure(Math.max(la, lb) + 1)
  const matchedA = flagsA
  const matchedB = flagsB
  matchedA.fill(0, 0, la)
  matchedB.fill(0, 0, lb)
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1)
  let matches = 0
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window)
    const hi = Math.min(lb - 1, i + window)
    const c = a.charCodeAt(i)
    for (let j = lo; j <= hi; j++) {
      if (matchedB[j] === 0 && c === b.charCodeAt(j)) {
        matchedA[i] = 1
        matchedB[j] = 1
        matches++
        break
      }
    }
  }
  if (matches === 0) return 0
  let transpositions = 0
  let k = 0
  for (let i = 0; i < la; i++) {
    if (matchedA[i] === 0) continue
    while (matchedB[k] === 0) k++
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++
    k++
  }
  const m = matches
  const jaro = (m / la + m / lb + (m - transpositions / 2) / m) / 3
  let prefix = 0
  while (prefix < 4 && prefix < la && prefix < lb && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++
  return jaro + prefix * 0.1 * (1 - jaro)
}

/** Optimal-string-alignment edit distance (adjacent transpositions count once), capped at `max + 1`. */
export const editDistance = (a: string, b: string, max = Number.MAX_SAFE_INTEGER): number => {
  const la = a.length
  const lb = b.length
  if (Math.abs(la - lb) > max) return max + 1
  if (la === 0) return lb
  if (lb === 0) return la
  ensure(lb + 1)
  let prev2 = row0
  let prev = row1
  let cur = row2
  for (let j = 0; j <= lb; j++) {
    prev[j] = j
    prev2[j] = 0
  }
  for (let i = 1; i <= la; i++) {
    cur[0] = i
    let rowMin = i
    const ca = a.charCodeAt(i - 1)
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1)
      const cost = ca === cb ? 0 : 1
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) v = Math.min(v, prev2[j - 2]! + 1)
      cur[j] = v
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    const t = prev2
    prev2 = prev
    prev = cur
    cur = t
  }
  return prev[lb]!
}

/**
 * Best-pairs token similarity: each token of the shorter list is paired with its most similar
 * unused token of the other (Jaro-Winkler), weighted by token length; unpaired tokens of the
 * longer list lower the score by their share of the characters.
 */
export const tokenSetSimilarity = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  if (a.length === 0 || b.length === 0) return 0
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  const used = new Uint8Array(long.length)
  let weighted = 0
  let weight = 0
  for (const t of short) {
    let best = 0
    let bestJ = -1
    for (let j = 0; j < long.length; j++) {
      if (used[j] === 1) continue
      const s = t === long[j] ? 1 : jaroWinkler(t, long[j]!)
      if (s > best) {
        best = s
        bestJ = j
      }
    }
    if (bestJ >= 0) used[bestJ] = 1
    const w = Math.max(t.length, bestJ >= 0 ? long[bestJ]!.length : 0)
    weighted += best * w
    weight += w
  }
  let unpaired = 0
  for (let j = 0; j < long.length; j++) if (used[j] === 0) unpaired += long[j]!.length
  return weighted / (weight + unpaired)
}

/** Function words that carry no identity in a name ("of", "and", "the", ...): unpaired, they cost nothing. */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  "of",
  "and",
  "the",
  "de",
  "la",
  "le",
  "el",
  "y",
  "et",
  "a",
  "an",
  "at",
  "on",
  "in",
  "for",
  "by"
])

/** Name particles of people ("al", "bin", "van", ...), minor in person names as function words are. */
export const NAME_PARTICLES: ReadonlySet<string> = new Set(["al", "bin", "ibn", "abu", "van", "von", "der"])

const ROMAN = /^(?:i{1,3}|iv|v|vi{1,3}|ix|x)$/

/** Numbers and roman numerals tell entities apart (Fund III, Fund IV): they never count as typos. */
export const isNumeral = (t: string): boolean => /\d/.test(t) || ROMAN.test(t)
