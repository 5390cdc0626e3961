/** The API-key middleware: 401 with a `{"detail"}` body for every refused key (DECISIONS section 3). */
import { Effect, Layer, Redacted } from "effect"
import { Authentication, Unauthorized } from "./Api.js"
import { type ApiKey, ApiKeysRepo, type SCOPES } from "./ApiKeys/Repo.js"
import * as Body from "./Body.js"

/** A scope a key may carry. */
export type Scope = (typeof SCOPES)[number]

/** Whether a key may act in a scope (a key with no scopes may do everything its environment allows). */
export const hasScope = (key: ApiKey, scope: Scope): boolean => key.scopes.length === 0 || key.scopes.includes(scope)

/** The 403 for a key without the scope (DECISIONS section 3). */
export const lacksScope = (scope: Scope) => Body.json(403, { detail: `This key lacks the ${scope} scope.` })

const messages = {
  missing: "Missing API key: send it in the X-API-Key header.",
  malformed: "Malformed API key.",
  unknown: "Invalid API key.",
  revoked: "This API key has been revoked."
} as const

/** Authentication on the keys store. */
export const layer = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const keys = yield* ApiKeysRepo
    return {
      apiKey: (presented) =>
        keys.authenticate(Redacted.value(presented)).pipe(
          Effect.mapError((e) => new Unauthorized({ detail: messages[e.reason] }))
        )
    }
  })
)
