/**
 * TIN rules (DECISIONS section 6): digits of a submitted TIN, its kind (SSN, EIN or UNKNOWN), the
 * IRS EIN prefix list and the SSN format rules (area not 000, 666 or 900-999; group not 00;
 * serial not 0000), and the `TinAuthority` service that says whether a TIN belongs to a business.
 */
import { Context, Data, Effect, Layer } from "effect"
import einPrefixData from "./data/ein-prefixes.json" with { type: "json" }
import type { TinMatchType } from "./Search.js"

const EIN_PREFIXES = new Set(einPrefixData as ReadonlyArray<string>)

/** The nine digits of a TIN (dashes and spaces removed); undefined when it is not nine digits. */
export const digits = (tin: string): string | undefined => {
  const d = tin.replace(/[- ]/g, "")
  return /^\d{9}$/.test(d) ? d : undefined
}

/** An EIN whose two-digit prefix the IRS assigns. */
export const isValidEin = (d: string): boolean => EIN_PREFIXES.has(d.slice(0, 2))

/** An SSN that follows the SSA's format rules. */
export const isValidSsn = (d: string): boolean => {
  const area = Number(d.slice(0, 3))
  return area !== 0 && area !== 666 && area < 900 && d.slice(3, 5) !== "00" && d.slice(5) !== "0000"
}

/**
 * The kind of a submitted TIN: the dash layout decides ("12-3456789" EIN, "123-45-6789" SSN);
 * without one, a number valid only as an EIN is an EIN, valid only as an SSN an SSN, else UNKNOWN.
 */
export const kind = (raw: string): TinMatchType => {
  const d = digits(raw)
  if (d === undefined) return "UNKNOWN"
  const t = raw.replace(/ /g, "")
  if (/^\d{2}-\d{7}$/.test(t)) return isValidEin(d) ? "EIN" : "UNKNOWN"
  if (/^\d{3}-\d{2}-\d{4}$/.test(t)) return isValidSsn(d) ? "SSN" : "UNKNOWN"
  const ein = isValidEin(d)
  const ssn = isValidSsn(d)
  return ein && !ssn ? "EIN" : ssn && !ein ? "SSN" : "UNKNOWN"
}

/** What the tax authority said about a TIN and a business. */
export type TinVerdict = Data.TaggedEnum<{
  Matched: {}
  NotMatched: {}
  /** The TIN is real but belongs to another entity, named here. */
  PotentialMatch: { readonly name: string }
  /** The authority could not be asked (DECISIONS: `tin_matched` null plus a warning). */
  Unavailable: {}
}>
/** Constructors of TinVerdict. */
export const TinVerdict = Data.taggedEnum<TinVerdict>()

/** The business a TIN is checked against. */
export interface TinSubject {
  readonly name: string
  readonly ein: string | null | undefined
}

/** Who a TIN belongs to. */
export interface TinOwner {
  readonly name: string
}

/** Checks a TIN against a business with the tax authority. */
export class TinAuthority extends Context.Tag("@osiris/core/TinAuthority")<TinAuthority, {
  readonly check: (tinDigits: string, subject: TinSubject | undefined) => Effect.Effect<TinVerdict>
}>() {
  /**
   * An authority that knows the EINs of a registry: the business's own EIN matches, the EIN of
   * another known business is a potential match naming it, anything else does not match.
   */
  static readonly make = (owner: (tinDigits: string) => Effect.Effect<TinOwner | undefined>) =>
    TinAuthority.of({
      check: (tin, subject) =>
        Effect.gen(function*() {
          if (subject?.ein !== undefined && subject.ein !== null && digits(subject.ein) === tin) {
            return TinVerdict.Matched()
          }
          const other = yield* owner(tin)
          return other === undefined ? TinVerdict.NotMatched() : TinVerdict.PotentialMatch({ name: other.name })
        })
    })

  /** An authority that is down: every check is Unavailable. */
  static readonly layerUnavailable = Layer.succeed(TinAuthority, {
    check: () => Effect.succeed(TinVerdict.Unavailable())
  })
}

/** The Search's TIN fields. */
export interface TinFields {
  readonly tin_matched: boolean | null
  readonly tin_match_type: TinMatchType | null
  readonly tin_potential_match: string | null
  readonly warning: string | undefined
}

/** The warning of DECISIONS section 6 when the authority is down. */
export const UNAVAILABLE_WARNING = "TIN validation is unavailable."

/** Runs the TIN rules and the authority for a submitted TIN (or none). */
export const verify = (raw: string | undefined, subject: TinSubject | undefined) =>
  Effect.gen(function*() {
    if (raw === undefined) {
      return { tin_matched: null, tin_match_type: null, tin_potential_match: null, warning: undefined } as TinFields
    }
    const type = kind(raw)
    const d = digits(raw)
    if (d === undefined || (!isValidEin(d) && !isValidSsn(d))) {
      return { tin_matched: false, tin_match_type: type, tin_potential_match: null, warning: undefined } as TinFields
    }
    const authority = yield* TinAuthority
    const verdict = yield* authority.check(d, subject)
    return TinVerdict.$match(verdict, {
      Matched: (): TinFields => ({
        tin_matched: true,
        tin_match_type: type === "UNKNOWN" ? "EIN" : type,
        tin_potential_match: null,
        warning: undefined
      }),
      NotMatched: (): TinFields => ({
        tin_matched: false,
        tin_match_type: type,
        tin_potential_match: null,
        warning: undefined
      }),
      PotentialMatch: ({ name }): TinFields => ({
        tin_matched: false,
        tin_match_type: type === "UNKNOWN" ? "EIN" : type,
        tin_potential_match: name,
        warning: undefined
      }),
      Unavailable: (): TinFields => ({
        tin_matched: null,
        tin_match_type: type,
        tin_potential_match: null,
        warning: UNAVAILABLE_WARNING
      })
    })
  })
