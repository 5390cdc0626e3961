/**
 * The HTTP API as one `HttpApi` definition (clients get a typed `HttpApiClient`), grouped under the
 * contract's functional areas as OpenAPI tags. Errors carry the contract's `{"detail": ...}` bodies
 * (DECISIONS sections 3 and 5). API keys come in the `X-API-Key` header.
 */
import {
  HttpApi,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity,
  OpenApi
} from "@effect/platform"
import { Business, Search, SearchRequest } from "@osiris/core"
import { Events } from "@osiris/webhooks"
import { Context, Schema } from "effect"
import type { ApiKey } from "./ApiKeys/Repo.js"
import * as OpenApiDoc from "./OpenApiDoc.js"

/** 401: missing, malformed, unknown, revoked or incomplete key. */
export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(
  { detail: Schema.String },
  HttpApiSchema.annotations({ status: 401 })
) {}

// 403 and 404 share the `{"detail"}` shape with 401, which HttpApi's error encoder cannot tell
// apart; the handlers answer them as raw responses (see Searches/Http.ts).

/** The pydantic-shaped 422 body (served byte-exact by the handlers; described here for OpenAPI). */
export const ValidationErrorBody = Schema.Struct({
  detail: Schema.Array(Schema.Struct({
    type: Schema.String,
    loc: Schema.Array(Schema.Union(Schema.String, Schema.Number)),
    msg: Schema.String,
    input: Schema.Unknown,
    ctx: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
  }))
}).annotations({ identifier: "HTTPValidationError", ...HttpApiSchema.annotations({ status: 422 }) })

/** The key that authenticated the request. */
export class CurrentKey extends Context.Tag("@osiris/http/CurrentKey")<CurrentKey, ApiKey>() {}

/** API-key authentication (runs before the body is read, so 401 comes before 422). */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@osiris/http/Authentication", {
  failure: Unauthorized,
  provides: CurrentKey,
  security: { apiKey: HttpApiSecurity.apiKey({ in: "header", key: "X-API-Key" }) }
}) {}

/** The `{id}` of a resource path (any text: handlers answer 404 for what is not an id). */
const IdPath = Schema.Struct({ id: Schema.String })

/** Business Verification: searches. */
export class SearchesGroup extends HttpApiGroup.make("searches")
  .add(
    HttpApiEndpoint.post("create", "/searches")
      .setPayload(SearchRequest.CreateSearchRequest)
      .addSuccess(Search.Search, { status: 201 })
      .addSuccess(Search.Search, { status: 202 })
      .addError(ValidationErrorBody)
  )
  .add(
    HttpApiEndpoint.get("get", "/searches/:id")
      .setPath(IdPath)
      .addSuccess(Search.Search)
  )
  .add(
    HttpApiEndpoint.get("status", "/searches/:id/status")
      .setPath(IdPath)
      .addSuccess(Search.SearchStatus)
  )
  .add(
    HttpApiEndpoint.get("list", "/searches")
      .addSuccess(Schema.Struct({ data: Schema.Array(Search.Search), next_cursor: Schema.NullOr(Schema.String) }))
      .addError(ValidationErrorBody)
  )
  .add(
    HttpApiEndpoint.post("cancel", "/searches/:id/cancel")
      .setPath(IdPath)
      .addSuccess(Search.Search)
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Business Verification")
{}

/** Business Verification: businesses of the registry the key's environment searches. */
export class BusinessesGroup extends HttpApiGroup.make("businesses")
  .add(HttpApiEndpoint.get("get", "/businesses/:id").setPath(IdPath).addSuccess(Business.Business))
  .add(
    HttpApiEndpoint.get("status", "/businesses/:id/status").setPath(IdPath).addSuccess(
      Schema.Struct({
        id: Schema.String,
        name: Schema.String,
        status: Schema.String,
        standing: Schema.String,
        updated_at: Schema.NullOr(Schema.String)
      }).annotations({ identifier: "BusinessStatus" })
    )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Business Verification")
{}

/** Business Verification: the records of ordered extras, one path per option. */
export class OrderablesGroup extends HttpApiGroup.make("orderables")
  .add(
    HttpApiEndpoint.get("websiteAnalysis", "/website_analysis_requests/:id").setPath(IdPath).addSuccess(
      Events.OrderRecord
    )
  )
  .add(
    HttpApiEndpoint.get("naicsPrediction", "/naics_prediction_requests/:id").setPath(IdPath).addSuccess(
      Events.OrderRecord
    )
  )
  .add(
    HttpApiEndpoint.get("pepScreening", "/pep_screening_requests/:id").setPath(IdPath).addSuccess(Events.OrderRecord)
  )
  .add(HttpApiEndpoint.get("enhanced", "/enhanced_requests/:id").setPath(IdPath).addSuccess(Events.OrderRecord))
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Business Verification")
{}

/** Business Verification: autocomplete, handing out business tokens for `POST /searches`. */
export class AutocompleteGroup extends HttpApiGroup.make("autocomplete")
  .add(
    HttpApiEndpoint.get("businesses", "/autocomplete/businesses")
      .addSuccess(
        Schema.Struct({
          suggestions: Schema.Array(Schema.Struct({
            business_token: Schema.String,
            label: Schema.String,
            name: Schema.String,
            city: Schema.NullOr(Schema.String),
            state: Schema.NullOr(Schema.String),
            structure: Schema.NullOr(Schema.String),
            match: Search.NameMatch
          }))
        }).annotations({ identifier: "Suggestions" })
      )
      .addError(ValidationErrorBody)
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Business Verification")
{}

/** An API key as the API shows it (the key itself only in the creation response). */
export const ApiKeyView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  application: Schema.String,
  environment: Schema.Literal("SANDBOX", "PRODUCTION"),
  prefix: Schema.String,
  scopes: Schema.Array(Schema.String),
  default_request_mode: Schema.Literal("sync", "async"),
  created_at: Schema.String,
  revoked_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ApiKey" })

/** Platform: API keys of the caller's application and environment (scope keys:manage). */
export class ApiKeysGroup extends HttpApiGroup.make("apiKeys")
  .add(
    HttpApiEndpoint.post("create", "/api_keys")
      .setPayload(Schema.Struct({
        name: Schema.String,
        scopes: Schema.optional(Schema.Array(Schema.String)),
        default_request_mode: Schema.optional(Schema.Literal("sync", "async"))
      }))
      .addSuccess(Schema.Struct({ ...ApiKeyView.fields, key: Schema.String }), { status: 201 })
      .addError(ValidationErrorBody)
  )
  .add(HttpApiEndpoint.get("list", "/api_keys").addSuccess(Schema.Struct({ data: Schema.Array(ApiKeyView) })))
  .add(HttpApiEndpoint.del("revoke", "/api_keys/:id").setPath(IdPath).addSuccess(ApiKeyView))
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Platform")
{}

/** A webhook endpoint as the API shows it (the secret only when created or rotated). */
export const WebhookEndpointView = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  description: Schema.NullOr(Schema.String),
  event_types: Schema.Array(Events.EventType),
  environment: Schema.Literal("SANDBOX", "PRODUCTION"),
  created_at: Schema.String,
  updated_at: Schema.String,
  disabled_at: Schema.NullOr(Schema.String),
  disabled_reason: Schema.NullOr(Schema.String),
  previous_secret_expires_at: Schema.NullOr(Schema.String)
}).annotations({ identifier: "WebhookEndpoint" })

/** One attempt of a delivery. */
export const DeliveryAttemptView = Schema.Struct({
  attempt: Schema.Number,
  at: Schema.String,
  status: Schema.NullOr(Schema.Number),
  latency_ms: Schema.Number,
  error: Schema.NullOr(Schema.String),
  response: Schema.NullOr(Schema.String)
}).annotations({ identifier: "WebhookDeliveryAttempt" })

/** A delivery of one event to one endpoint. */
export const DeliveryView = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  state: Schema.Literal("PENDING", "DELIVERED", "EXHAUSTED", "DISCARDED"),
  attempts: Schema.Number,
  next_attempt_at: Schema.NullOr(Schema.String),
  last_status: Schema.NullOr(Schema.Number),
  last_error: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String,
  attempt_log: Schema.Array(DeliveryAttemptView)
}).annotations({ identifier: "WebhookDelivery" })

/** Platform: webhook endpoints, their deliveries, redelivery (scope webhooks:manage). */
export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/webhooks")
      .setPayload(Schema.Struct({
        url: Schema.String,
        event_types: Schema.optional(Schema.Array(Events.EventType)),
        description: Schema.optional(Schema.String)
      }))
      .addSuccess(Schema.Struct({ ...WebhookEndpointView.fields, secret: Schema.String }), { status: 201 })
      .addError(ValidationErrorBody)
  )
  .add(
    HttpApiEndpoint.get("list", "/webhooks").addSuccess(Schema.Struct({ data: Schema.Array(WebhookEndpointView) }))
  )
  .add(HttpApiEndpoint.del("delete", "/webhooks/:id").setPath(IdPath).addSuccess(Schema.Void, { status: 204 }))
  .add(
    HttpApiEndpoint.post("rotateSecret", "/webhooks/:id/rotate_secret")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ ...WebhookEndpointView.fields, secret: Schema.String }))
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/webhooks/:id/deliveries")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ data: Schema.Array(DeliveryView) }))
  )
  .add(
    HttpApiEndpoint.post("redeliver", "/events/:id/redeliver")
      .setPath(IdPath)
      .addSuccess(Schema.Struct({ event_id: Schema.String, deliveries: Schema.Number }), { status: 202 })
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Platform")
{}

/** Platform: billable usage per day (scope usage:read). */
export class UsageGroup extends HttpApiGroup.make("usage")
  .add(
    HttpApiEndpoint.get("daily", "/usage")
      .addSuccess(
        Schema.Struct({
          from: Schema.String,
          to: Schema.String,
          environment: Schema.Literal("SANDBOX", "PRODUCTION"),
          data: Schema.Array(Schema.Struct({ date: Schema.String, kind: Schema.String, count: Schema.Number })),
          total: Schema.Number
        }).annotations({ identifier: "Usage" })
      )
      .addError(ValidationErrorBody)
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Platform")
{}

/** Platform: liveness and readiness (no key needed). */
export class HealthGroup extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("live", "/health/live").addSuccess(Schema.Struct({ status: Schema.Literal("ok") })))
  .add(HttpApiEndpoint.get("ready", "/health/ready").addSuccess(Schema.Struct({ status: Schema.Literal("ok") })))
  .annotate(OpenApi.Title, "Platform")
{}

/** The whole API. */
export class OsirisApi extends HttpApi.make("osiris")
  .add(SearchesGroup)
  .add(BusinessesGroup)
  .add(OrderablesGroup)
  .add(AutocompleteGroup)
  .add(ApiKeysGroup)
  .add(WebhooksGroup)
  .add(UsageGroup)
  .add(HealthGroup)
  .annotate(OpenApi.Title, "Osiris")
  .annotate(OpenApi.Transform, OpenApiDoc.complete)
{}
