/**
 * Person-name normalisation for officers and registered agents: titles (Mr, Dr, Hon, ...) and
 * suffixes (Jr, III, PhD, ...) removed, "LAST, First" turned around, middle names and initials
 * kept apart, and a nickname relation (Bob ~ Robert) from the carltonnorthern/nicknames list.
 */
import nicknameData from "./data/nicknames.json" with { type: "json" }
import stopwordData from "./data/stopwords.json" with { type: "json" }
import { tokens } from "./internal/Text.js"

/** A normalised person name. */
export interface PersonName {
  readonly raw: string
  readonly first: string | undefined
  readonly middles: ReadonlyArray<string>
  readonly last: string | undefined
}

const TITLES = new Set([
  ...stopwordData.personPrefixes.flatMap((p) => tokens(p)),
  ...stopwordData.personalTitles.flat().flatMap((p) => (tokens(p).length === 1 ? tokens(p) : []))
])

const SUFFIXES = new Set([
  ...stopwordData.personalSuffixes.flat().flatMap((p) => tokens(p)),
  "ii",
  "iii",
  "iv",
  "v",
  "2nd",
  "3rd",
  "esq",
  "esquire",
  "phd",
  "md",
  "dds",
  "cpa",
  "jd",
  "mba",
  "rn",
  "pe"
])

/** Normalises a person name. */
export const normalize = (raw: string): PersonName => {
  let text = raw
  // "DOE, JOHN Q" -> "JOHN Q DOE", unless what follows the comma is only a suffix ("John Doe, Jr.").
  const comma = raw.indexOf(",")
  if (comma > 0) {
    const before = raw.slice(0, comma)
    const after = raw.slice(comma + 1)
    const afterTokens = tokens(after).filter((t) => !SUFFIXES.has(t) && !TITLES.has(t))
    if (afterTokens.length > 0) text = `${after} ${before}`
    else text = before
  }
  const t = tokens(text).filter((x) => !SUFFIXES.has(x))
  while (t.length > 1 && TITLES.has(t[0]!)) t.shift()
  if (t.length === 0) return { raw, first: undefined, middles: [], last: undefined }
  if (t.length === 1) return { raw, first: undefined, middles: [], last: t[0] }
  return { raw, first: t[0], middles: t.slice(1, -1), last: t[t.length - 1] }
}

let nick: ReadonlyMap<string, ReadonlySet<string>> | undefined
const nicknames = (): ReadonlyMap<string, ReadonlySet<string>> => {
  if (nick !== undefined) return nick
  const m = new Map<string, Set<string>>()
  const link = (a: string, b: string) => {
    let s = m.get(a)
    if (s === undefined) m.set(a, s = new Set())
    s.add(b)
  }
  for (const [a, b] of nicknameData) {
    link(a!, b!)
    link(b!, a!)
  }
  return nick = m
}

/** True when one first name is a known nickname or formal form of the other (undirected). */
export const areNicknames = (a: string, b: string): boolean => a === b || (nicknames().get(a)?.has(b) ?? false)
