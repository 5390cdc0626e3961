/**
 * `business_address_match` (DECISIONS section 6), best over all of the business's addresses:
 * EXACT = same standardised number, street, suffix, directionals, unit (when both have one) and
 * ZIP5 or city+state; SIMILAR = same number and a near street, or matching fields with city or
 * ZIP missing; CITY = same city and state only; STATE = same state only; else NO_MATCH.
 */
import { editDistance, jaroWinkler } from "./internal/Text.js"
import type { AddressMatch } from "./Search.js"
import type { UsAddress } from "./UsAddress.js"

const RANK: Readonly<Record<AddressMatch, number>> = { NO_MATCH: 0, STATE: 1, CITY: 2, SIMILAR: 3, EXACT: 4 }

/** The better of two grades. */
export const best = (a: AddressMatch, b: AddressMatch): AddressMatch => (RANK[a] >= RANK[b] ? a : b)

/** Ordering of grades, NO_MATCH lowest. */
export const rank = (g: AddressMatch): number => RANK[g]

const squash = (s: string) => s.replace(/ /g, "")

/** Street names that are the same, or one typo apart (two from 8 letters), ignoring spaces. */
export const nearStreet = (a: string, b: string): boolean => {
  if (a === b) return true
  const x = squash(a)
  const y = squash(b)
  if (x === y) return true
  const n = Math.min(x.length, y.length)
  if (n < 4) return false
  return editDistance(x, y, 2) <= (n >= 8 ? 2 : 1) || (n >= 6 && jaroWinkler(x, y) >= 0.94)
}

const same = (a: string | undefined, b: string | undefined) => a !== undefined && a === b
const conflict = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a !== b

/** Grades one input address against one business address. */
export const grade = (input: UsAddress, business: UsAddress): AddressMatch => {
  const stateConflict = conflict(input.state, business.state)
  const sameStreet = input.poBox !== undefined
    ? same(input.poBox, business.poBox)
    : same(input.number, business.number) && same(input.streetName, business.streetName)
  if (sameStreet && !stateConflict) {
    const exactStreet = input.poBox !== undefined || (
      input.suffix === business.suffix &&
      input.predirectional === business.predirectional &&
      input.postdirectional === business.postdirectional &&
      !conflict(input.unitId, business.unitId)
    )
    const zipOrCityState = same(input.zip5, business.zip5) ||
      (same(input.city, business.city) && same(input.state, business.state))
    if (exactStreet && zipOrCityState) return "EXACT"
    return "SIMILAR"
  }
  if (
    !stateConflict && input.number !== undefined && same(input.number, business.number) &&
    input.streetName !== undefined && business.streetName !== undefined &&
    nearStreet(input.streetName, business.streetName)
  ) return "SIMILAR"
  if (same(input.city, business.city) && same(input.state, business.state)) return "CITY"
  if (same(input.state, business.state)) return "STATE"
  return "NO_MATCH"
}

/** The best grade over all of a business's addresses (NO_MATCH when it has none). */
export const gradeBest = (input: UsAddress, addresses: ReadonlyArray<UsAddress>): AddressMatch => {
  let g: AddressMatch = "NO_MATCH"
  for (const a of addresses) {
    g = best(g, grade(input, a))
    if (g === "EXACT") break
  }
  return g
}
