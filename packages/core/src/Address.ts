/**
 * The contract's Address resource, and the variant inside a business's `addresses` that also
 * names where the address was found (`sources`).
 */
import { Schema } from "effect"
import { AddressId } from "./Formats.js"

/** Address fields in contract order. Parts that could not be determined are `null`. */
export const addressFields = {
  id: AddressId,
  street: Schema.NullOr(Schema.String),
  city: Schema.NullOr(Schema.String),
  state: Schema.NullOr(Schema.String),
  zip: Schema.NullOr(Schema.String),
  latitude: Schema.NullOr(Schema.Finite),
  longitude: Schema.NullOr(Schema.Finite),
  rdi: Schema.NullOr(Schema.String),
  deliverable: Schema.Boolean,
  cmra: Schema.Boolean,
  url: Schema.NullOr(Schema.String),
  delivery_type: Schema.NullOr(Schema.String)
}

/** A postal address (the sanitized search address, a registration address, an agent's address). */
export const Address = Schema.Struct(addressFields).annotations({ identifier: "Address" })
/** @see Address */
export type Address = typeof Address.Type

/** An address of a business, with the labels of the sources it was found in. */
export const BusinessAddress = Schema.Struct({
  ...addressFields,
  sources: Schema.Array(Schema.String)
}).annotations({ identifier: "BusinessAddress" })
/** @see BusinessAddress */
export type BusinessAddress = typeof BusinessAddress.Type
