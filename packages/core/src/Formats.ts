/**
 * Wire formats of the contract: UUID ids, timestamps with fractional seconds and no zone
 * designator (`2026-01-31T12:34:56.789012`, UTC; DECISIONS section 7), calendar dates and URL
 * fields of length 1 to 2083.
 */
import { Schema } from "effect"

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{6})$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

const isRealDate = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d))
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d
}

const MIN_MS = Date.UTC(1970, 0, 1)
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/** A UTC instant as `YYYY-MM-DDTHH:MM:SS.ffffff` (six fractional digits, no zone designator). */
export const Timestamp = Schema.String.pipe(
  Schema.filter((s) => {
    const m = TIMESTAMP.exec(s)
    return m !== null && isRealDate(+m[1]!, +m[2]!, +m[3]!) && +m[4]! < 24 && +m[5]! < 60 && +m[6]! < 60
  }, { message: () => "expected a timestamp YYYY-MM-DDTHH:MM:SS.ffffff without a zone designator" }),
  Schema.annotations({
    identifier: "Timestamp",
    description: "ISO 8601 date-time in UTC with six fractional digits and no zone designator",
    examples: ["2026-01-31T12:34:56.789012"],
    jsonSchema: { type: "string", format: "date-time", pattern: TIMESTAMP.source },
    arbitrary: () => (fc) =>
      fc.tuple(fc.integer({ min: MIN_MS, max: MAX_MS }), fc.integer({ min: 0, max: 999 })).map(([ms, us]) =>
        formatTimestamp(ms, us)
      )
  }),
  Schema.brand("Timestamp")
)
/** @see Timestamp */
export type Timestamp = typeof Timestamp.Type

/** Formats epoch milliseconds (plus optional extra microseconds) as a wire timestamp. */
export const formatTimestamp = (epochMillis: number, extraMicros = 0): string => {
  const d = new Date(epochMillis)
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${
    pad(d.getUTCMinutes())
  }:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}${pad(extraMicros, 3)}`
}

/** The wire timestamp of an instant given in epoch milliseconds. */
export const timestampFromMillis = (epochMillis: number): Timestamp => formatTimestamp(epochMillis) as Timestamp

/** Epoch milliseconds of a wire timestamp (microseconds beyond the millisecond are dropped). */
export const timestampToMillis = (t: Timestamp): number => {
  const m = TIMESTAMP.exec(t)!
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!.slice(0, 3))
}

/** An ISO 8601 calendar date `YYYY-MM-DD`. */
export const CalendarDate = Schema.String.pipe(
  Schema.filter((s) => {
    const m = DATE.exec(s)
    return m !== null && isRealDate(+m[1]!, +m[2]!, +m[3]!)
  }, { message: () => "expected a calendar date YYYY-MM-DD" }),
  Schema.annotations({
    identifier: "CalendarDate",
    description: "ISO 8601 calendar date",
    examples: ["2019-04-01"],
    jsonSchema: { type: "string", format: "date" },
    arbitrary: () => (fc) =>
      fc.integer({ min: Date.UTC(1800, 0, 1), max: MAX_MS }).map((ms) => formatTimestamp(ms).slice(0, 10))
  }),
  Schema.brand("CalendarDate")
)
/** @see CalendarDate */
export type CalendarDate = typeof CalendarDate.Type

/** A URL field: a string of length 1 to 2083. */
export const UrlString = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(2083),
  Schema.annotations({ identifier: "Url", description: "URL, 1 to 2083 characters" })
)

/** Any UUID string (ids are UUIDv7 when Osiris makes them; DECISIONS section 7). */
export const Uuid = Schema.UUID

/** Whether text is a UUID (ids in URLs: anything else is simply not found, never a database error). */
export const isUuid = Schema.is(Uuid)

/** PostgreSQL's `to_char` pattern (a quoted SQL literal) for the wire Timestamp of a `timestamp` column. */
export const PG_TIMESTAMP = "'YYYY-MM-DD\"T\"HH24:MI:SS.US'"

/** Id of a search. */
export const SearchId = Uuid.pipe(Schema.brand("SearchId"))
/** @see SearchId */
export type SearchId = typeof SearchId.Type

/** Id of a business. */
export const BusinessId = Uuid.pipe(Schema.brand("BusinessId"))
/** @see BusinessId */
export type BusinessId = typeof BusinessId.Type

/** Id of an orderable (the associated request an option creates). */
export const OrderableId = Uuid.pipe(Schema.brand("OrderableId"))
/** @see OrderableId */
export type OrderableId = typeof OrderableId.Type

/** Id of an address record. */
export const AddressId = Uuid.pipe(Schema.brand("AddressId"))
/** @see AddressId */
export type AddressId = typeof AddressId.Type

/** Id of a registration record. */
export const RegistrationId = Uuid.pipe(Schema.brand("RegistrationId"))
/** @see RegistrationId */
export type RegistrationId = typeof RegistrationId.Type

/** Id of the user who performed a search. */
export const UserId = Uuid.pipe(Schema.brand("UserId"))
/** @see UserId */
export type UserId = typeof UserId.Type
