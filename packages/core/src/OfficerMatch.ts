/**
 * `business_officer_match` and `registered_agent_match` (DECISIONS section 6): the input officer
 * names against the business's officers (or its registered agents). EXACT = same first and last
 * name (middle names, initials, suffixes and titles ignored); SIMILAR = nickname, an initial for
 * the first name, swapped order, or a small typo; else NO_MATCH; `null` when no names were given.
 * An agent that is a company (CT Corporation System) is compared as a business name.
 */
import * as BusinessName from "./BusinessName.js"
import { editDistance } from "./internal/Text.js"
import * as NameMatch from "./NameMatch.js"
import * as PersonName from "./PersonName.js"
import type { OfficerMatch } from "./Search.js"

const typo = (a: string, b: string) => {
  const n = Math.min(a.length, b.length)
  return n >= 4 && editDistance(a, b, 2) <= (n >= 8 ? 2 : 1)
}

const firstNamesAgree = (a: string, b: string) =>
  PersonName.areNicknames(a, b) || typo(a, b) ||
  (a.length === 1 && b.startsWith(a)) || (b.length === 1 && a.startsWith(b))

/** Grades one input name against one officer name. */
export const gradeOne = (input: string, officer: string): OfficerMatch =>
  gradePersons(PersonName.normalize(input), PersonName.normalize(officer))

const gradePersons = (a: PersonName.PersonName, b: PersonName.PersonName): OfficerMatch => {
  if (a.last === undefined || b.last === undefined) return "NO_MATCH"
  if (a.first !== undefined && a.first === b.first && a.last === b.last) return "EXACT"
  if (a.first === undefined || b.first === undefined) {
    return a.first === b.first && a.last === b.last ? "EXACT" : "NO_MATCH"
  }
  if (a.last === b.last || typo(a.last, b.last)) {
    if (firstNamesAgree(a.first, b.first)) return "SIMILAR"
  }
  // Swapped order: "Smith John" ~ "John Smith".
  if (a.first === b.last && a.last === b.first) return "SIMILAR"
  return "NO_MATCH"
}

const RANK: Readonly<Record<OfficerMatch, number>> = { NO_MATCH: 0, SIMILAR: 1, EXACT: 2 }

/** A name prepared once for many comparisons: as a person, and as an organisation when it reads as one. */
export interface PreparedName {
  readonly raw: string
  readonly person: PersonName.PersonName
  readonly organisation: boolean
}

/** Prepares a name for `gradePrepared`. */
export const prepare = (raw: string): PreparedName => ({
  raw,
  person: PersonName.normalize(raw),
  organisation: BusinessName.looksLikeOrganisation(raw)
})

/** Best grade of any input against any candidate (prepared); `null` when no names were submitted. */
export const gradePrepared = (
  inputs: ReadonlyArray<PreparedName>,
  candidates: ReadonlyArray<PreparedName>
): OfficerMatch | null => {
  if (inputs.length === 0) return null
  let g: OfficerMatch = "NO_MATCH"
  for (const i of inputs) {
    for (const c of candidates) {
      const r = c.organisation || i.organisation
        ? NameMatch.grade({ name: i.raw, alternatives: [] }, { name: c.raw, alternatives: [] })
        : gradePersons(i.person, c.person)
      if (RANK[r] > RANK[g]) g = r
      if (g === "EXACT") return g
    }
  }
  return g
}

/** Best grade of any input name against any candidate; `null` when no names were submitted. */
export const grade = (inputs: ReadonlyArray<string>, candidates: ReadonlyArray<string>): OfficerMatch | null =>
  gradePrepared(inputs.map(prepare), candidates.map(prepare))
