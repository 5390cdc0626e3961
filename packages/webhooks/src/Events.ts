/**
 * The webhook event catalogue (DECISIONS section 8) as Schemas: every event type with its payload,
 * inside the envelope `{type, timestamp, data}`. Search events carry the full Search (with its
 * `idempotency_key`); API key events never carry the key itself.
 */
import { Formats, Search } from "@osiris/core"
import { Schema } from "effect"

/** Environments of API keys. */
export const Environment = Schema.Literal("SANDBOX", "PRODUCTION")

/** An API key as events describe it: never the key, only its display prefix. */
export const ApiKeyData = Schema.Struct({
  id: Formats.Uuid,
  name: Schema.String,
  application: Schema.String,
  environment: Environment,
  scopes: Schema.Array(Schema.String),
  /** The first characters of the key (`osk_test_ab12`), for people to recognise it. */
  prefix: Schema.String,
  created_at: Formats.Timestamp,
  revoked_at: Schema.NullOr(Formats.Timestamp)
}).annotations({ identifier: "ApiKeyData" })
/** @see ApiKeyData */
export type ApiKeyData = typeof ApiKeyData.Type

/** The record types of orderables (DECISIONS section 4), by option. */
export const recordTypes = {
  "Order.WebsiteAnalysis": "WebsiteAnalysisRequest",
  "Order.NaicsPrediction": "NAICSPredictionRequest",
  "Order.Pep": "PepScreeningRequest",
  "Order.Enhanced": "EnhancedSearchRequest"
} as const satisfies Record<Search.Option, string>

/** An orderable's record (`GET /<kind>/{id}`); `result` is the provider's output for its kind. */
export const OrderRecord = Schema.Struct({
  id: Formats.OrderableId,
  type: Schema.Literal(...Object.values(recordTypes)),
  option: Search.Option,
  state: Search.SearchState,
  search_id: Formats.SearchId,
  business_id: Schema.NullOr(Formats.BusinessId),
  reference_id: Schema.NullOr(Schema.String),
  created_at: Formats.Timestamp,
  updated_at: Formats.Timestamp,
  result: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  error: Schema.NullOr(Schema.String)
}).annotations({ identifier: "OrderRecord" })
/** @see OrderRecord */
export type OrderRecord = typeof OrderRecord.Type

const event = <T extends string, D extends Schema.Schema.Any>(type: T, data: D) =>
  Schema.Struct({ type: Schema.Literal(type), timestamp: Formats.Timestamp, data })

/** Every event, by type. */
export const events = {
  "APIKey.created": event("APIKey.created", ApiKeyData),
  "APIKey.deleted": event("APIKey.deleted", ApiKeyData),
  "BusinessSearch.submitted": event("BusinessSearch.submitted", Search.Search),
  "BusinessSearch.completed": event("BusinessSearch.completed", Search.Search),
  "BusinessSearch.failed": event("BusinessSearch.failed", Search.Search),
  "BusinessSearch.cancelled": event("BusinessSearch.cancelled", Search.Search),
  "BusinessSearch.updated": event("BusinessSearch.updated", Search.Search),
  "WebsiteAnalysisRequest.completed": event("WebsiteAnalysisRequest.completed", OrderRecord),
  "NAICSPredictionRequest.completed": event("NAICSPredictionRequest.completed", OrderRecord),
  "PepScreeningRequest.completed": event("PepScreeningRequest.completed", OrderRecord),
  "EnhancedSearchRequest.completed": event("EnhancedSearchRequest.completed", OrderRecord)
} as const

/** Every event type, in catalogue order. */
export const EVENT_TYPES = Object.keys(events) as ReadonlyArray<keyof typeof events>

/** Event type names. */
export const EventType = Schema.Literal(...EVENT_TYPES)
/** @see EventType */
export type EventType = typeof EventType.Type

/** Any event: the envelope `{type, timestamp, data}`. */
export const WebhookEvent = Schema.Union(...Object.values(events)).annotations({ identifier: "WebhookEvent" })
/** @see WebhookEvent */
export type WebhookEvent = typeof WebhookEvent.Type
