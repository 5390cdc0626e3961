/**
 * Request forms (v1) of `POST /searches` and the query of `GET /searches`, as typed values.
 * Form 1 names the business by name and address, Form 2 by an autocomplete `business_token`
 * alone; both may carry the optional fields. Bounds: the contract and DECISIONS section 5.
 * Raw requests are turned into these by `RequestValidation`, which answers pydantic-exact errors.
 */
import { Schema } from "effect"
import { codePointLength } from "./internal/PyJson.js"
import { Option, SearchState } from "./Search.js"

/** A string whose length in code points (not UTF-16 units) is within bounds, as pydantic counts. */
export const bounded = (min: number, max: number) =>
  Schema.String.pipe(
    Schema.filter((s) => {
      const n = codePointLength(s)
      return n >= min && n <= max
    }, {
      message: () => `expected ${min} to ${max} characters`,
      jsonSchema: { minLength: min, maxLength: max }
    })
  )

/** Bounds of every request field (lengths in code points). */
export const bounds = {
  name: { min: 1, max: 500 },
  address: { min: 2, max: 500 },
  website: { min: 1, max: 2083 },
  phone_number: { max: 24 },
  email: { max: 64 },
  tin: { max: 11 },
  reference_id: { max: 128 },
  business_token: { min: 1, max: 256 },
  listItem: { min: 1, max: 500 },
  listItems: 50,
  options: 4,
  idempotencyKey: { min: 1, max: 255 }
} as const

/** A TIN as submitted: 9 digits once `-` and spaces are removed (at most 11 characters raw). */
export const TinInput = bounded(0, bounds.tin.max).pipe(
  Schema.filter((s) => /^\d{9}$/.test(s.replace(/[- ]/g, "")), {
    message: () => "TIN must be 9 digits; '-' and spaces are ignored"
  })
)

const NameList = Schema.Array(bounded(bounds.listItem.min, bounds.listItem.max)).pipe(Schema.maxItems(bounds.listItems))

/** Optional fields shared by both forms. */
export const optionalFields = {
  officer_names: Schema.optionalWith(NameList, { exact: true }),
  website: Schema.optionalWith(bounded(bounds.website.min, bounds.website.max), { exact: true }),
  phone_number: Schema.optionalWith(bounded(0, bounds.phone_number.max), { exact: true }),
  email: Schema.optionalWith(bounded(0, bounds.email.max), { exact: true }),
  alternative_names: Schema.optionalWith(NameList, { exact: true }),
  tin: Schema.optionalWith(TinInput, { exact: true }),
  options: Schema.optionalWith(Schema.Array(Option).pipe(Schema.maxItems(bounds.options)), { exact: true }),
  reference_id: Schema.optionalWith(bounded(0, bounds.reference_id.max), { exact: true })
}

/** Form 1: name and address plus the optional fields. */
export const NameAddressForm = Schema.Struct({
  name: bounded(bounds.name.min, bounds.name.max),
  address: bounded(bounds.address.min, bounds.address.max),
  ...optionalFields
}).annotations({ identifier: "NameAddressForm", title: "Form 1: name and address" })
/** @see NameAddressForm */
export type NameAddressForm = typeof NameAddressForm.Type

/** Form 2: an autocomplete business token in place of name and address. */
export const BusinessTokenForm = Schema.Struct({
  business_token: bounded(bounds.business_token.min, bounds.business_token.max),
  ...optionalFields
}).annotations({ identifier: "BusinessTokenForm", title: "Form 2: business token" })
/** @see BusinessTokenForm */
export type BusinessTokenForm = typeof BusinessTokenForm.Type

/** The body of `POST /searches`: exactly one of the two forms. */
export const CreateSearchRequest = Schema.Union(NameAddressForm, BusinessTokenForm).annotations({
  identifier: "CreateSearchRequest"
})
/** @see CreateSearchRequest */
export type CreateSearchRequest = typeof CreateSearchRequest.Type

/** True for Form 2 requests. */
export const isBusinessTokenForm = (r: CreateSearchRequest): r is BusinessTokenForm => "business_token" in r

/** The query of `GET /searches`: page size, cursor and filters. */
export const ListSearchesQuery = Schema.Struct({
  limit: Schema.Int.pipe(Schema.between(1, 100)),
  cursor: Schema.optionalWith(bounded(1, 512), { exact: true }),
  state: Schema.optionalWith(SearchState, { exact: true }),
  reference_id: Schema.optionalWith(bounded(0, bounds.reference_id.max), { exact: true })
}).annotations({ identifier: "ListSearchesQuery" })
/** @see ListSearchesQuery */
export type ListSearchesQuery = typeof ListSearchesQuery.Type
