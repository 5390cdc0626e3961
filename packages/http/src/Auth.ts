/** The API-key middleware: 401 with a `{"detail"}` body for every refused key (DECISIONS section 3). */
import { Effect, Layer, Redacted } from "effect"
import { Authentication, Unauthorized } from "./Api.js"
import { ApiKeysRepo } from "./ApiKeys/Repo.js"

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
