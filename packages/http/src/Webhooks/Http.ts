/**
 * `/webhooks` and `/events/{id}/redeliver` (DECISIONS sections 4 and 8), scope `webhooks:manage`.
 * An endpoint belongs to the caller's application and environment and receives that environment's
 * events; its `whsec_` secret is in the creation and rotation responses only. A URL the outbound
 * guard refuses (not HTTPS, credentials, header-injection characters, a private, loopback,
 * link-local or metadata address, literally or by DNS) is a 422 at `["body", "url"]`. Another
 * application's endpoint or event is 404; the other environment's is 403.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Events, Guard, Signature, Store } from "@osiris/webhooks"
import { Context, Effect, Either, Option, Schema } from "effect"
import { CurrentKey, OsirisApi } from "../Api.js"
import type { ApiKey } from "../ApiKeys/Repo.js"
import * as Auth from "../Auth.js"
import * as Body from "../Body.js"

/** The host's webhook settings. */
export class WebhookSettings extends Context.Tag("@osiris/http/WebhookSettings")<WebhookSettings, {
  readonly guard: Guard.GuardOptions
}>() {}

/** How long the old secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MILLIS = 24 * 60 * 60 * 1000

const view = (e: Store.Endpoint) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  event_types: e.eventTypes,
  environment: e.environment,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
  disabled_at: e.disabledAt,
  disabled_reason: e.disabledReason,
  previous_secret_expires_at: e.previousSecretUntil
})

const deliveryView = (d: Store.Delivery) => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  state: d.state,
  attempts: d.attempts,
  next_attempt_at: d.nextAttemptAt,
  last_status: d.lastStatus,
  last_error: d.lastError,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
  attempt_log: d.log.map((a) => ({
    attempt: a.attempt,
    at: a.at,
    status: a.status,
    latency_ms: a.latencyMs,
    error: a.error,
    response: a.response
  }))
})

const CreateBody = Schema.Struct({
  url: Schema.String,
  event_types: Schema.optionalWith(Schema.Array(Events.EventType), { exact: true }),
  description: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(500))), { exact: true })
})

const notFound = Body.json(404, { detail: "Webhook endpoint not found." })
const otherEnvironment = (k: ApiKey, environment: string) =>
  Body.json(403, {
    detail: `A ${k.environment.toLowerCase()} key cannot manage ${environment.toLowerCase()} webhooks.`
  })

/** The webhooks handlers. */
export const layer = HttpApiBuilder.group(OsirisApi, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const store = yield* Store.WebhookStore
    const { guard } = yield* WebhookSettings

    /** The caller's endpoint, or the answer that refuses it. */
    const owned = (caller: ApiKey, id: string) =>
      Effect.map(store.findEndpoint(caller.applicationId, id), (found) =>
        Option.isNone(found)
          ? Either.left(notFound)
          : found.value.environment !== caller.environment
          ? Either.left(otherEnvironment(caller, found.value.environment))
          : Either.right(found.value))

    return handlers
      .handleRaw("create", () =>
        Effect.gen(function*() {
          const caller = yield* CurrentKey
          if (!Auth.hasScope(caller, "webhooks:manage")) return Auth.lacksScope("webhooks:manage")
          const body = yield* Body.decode(
            CreateBody,
            `{"url": an https URL, "event_types"?: [${Events.EVENT_TYPES.join(", ")}], "description"?: text}`
          )
          if (Either.isLeft(body)) return body.left
          const { url } = body.right
          const refusal = Guard.urlRefusal(url, guard) ??
            (yield* Effect.promise(() => Guard.checkName(Guard.hostOf(new URL(url)), guard)))
          if (refusal !== undefined) return Body.valueError(["body", "url"], refusal, url)
          const secret = yield* Signature.newSecret
          const created = yield* store.createEndpoint({
            applicationId: caller.applicationId,
            environment: caller.environment,
            url,
            description: body.right.description ?? null,
            eventTypes: [...new Set(body.right.event_types ?? [])],
            secret
          })
          return Body.json(201, { ...view(created), secret })
        }))
      .handleRaw("list", () =>
        Effect.gen(function*() {
          const caller = yield* CurrentKey
          if (!Auth.hasScope(caller, "webhooks:manage")) return Auth.lacksScope("webhooks:manage")
          return Body.json(200, {
            data: (yield* store.listEndpoints(caller.applicationId, caller.environment)).map(view)
          })
        }))
      .handleRaw("delete", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* CurrentKey
          if (!Auth.hasScope(caller, "webhooks:manage")) return Auth.lacksScope("webhooks:manage")
          const found = yield* owned(caller, path.id)
          if (Either.isLeft(found)) return found.left
          yield* store.deleteEndpoint(caller.applicationId, path.id)
          return HttpServerResponse.empty({ status: 204 })
        }))
      .handleRaw("rotateSecret", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* CurrentKey
          if (!Auth.hasScope(caller, "webhooks:manage")) return Auth.lacksScope("webhooks:manage")
          const found = yield* owned(caller, path.id)
          if (Either.isLeft(found)) return found.left
          const secret = yield* Signature.newSecret
          const rotated = yield* store.rotateSecret(caller.applicationId, path.id, secret, ROTATION_OVERLAP_MILLIS)
          return Option.match(rotated, {
            onNone: () => notFound,
            onSome: (e) => Body.json(200, { ...view(e), secret })
          })
        }))
      .handleRaw("deliveries", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* CurrentKey
          if (!Auth.hasScope(caller, "webhooks:manage")) return Auth.lacksScope("webhooks:manage")
          const found = yield* owned(caller, path.id)
          if (Either.isLeft(found)) return found.left
          return Body.json(200, { data: (yield* store.deliveries(path.id, 100)).map(deliveryView) })
        }))
      .handleRaw("redeliver", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* CurrentKey
          if (!Auth.hasScope(caller, "webhooks:manage")) return Auth.lacksScope("webhooks:manage")
          // The other environment's event is refused before anything is queued.
          const queued = yield* store.redeliver(caller.applicationId, path.id, caller.environment)
          if (Option.isNone(queued)) return Body.json(404, { detail: "Event not found." })
          if (queued.value.environment !== caller.environment) {
            return otherEnvironment(caller, queued.value.environment)
          }
          return Body.json(202, { event_id: path.id, deliveries: queued.value.deliveries })
        }))
  }))
