/**
 * `/api_keys`: create (the key is in this response only), list and revoke the keys of the caller's
 * application and environment; scope `keys:manage` (DECISIONS sections 3 and 4). Another
 * application's key is 404, the other environment's 403.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Either, Option, Redacted, Schema } from "effect"
import { CurrentKey, OsirisApi } from "../Api.js"
import * as Auth from "../Auth.js"
import * as Body from "../Body.js"
import { type ApiKey, ApiKeysRepo, SCOPES } from "./Repo.js"

/** The API's view of a key. */
export const view = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  application: k.applicationName,
  environment: k.environment,
  prefix: k.prefix,
  scopes: k.scopes,
  default_request_mode: k.defaultRequestMode,
  created_at: k.createdAt,
  revoked_at: k.revokedAt
})

const json = Body.json

const CreateBody = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  scopes: Schema.optionalWith(Schema.Array(Schema.Literal(...SCOPES)), { exact: true }),
  default_request_mode: Schema.optionalWith(Schema.Literal("sync", "async"), { exact: true })
})

/** The API-keys handlers. */
export const layer = HttpApiBuilder.group(OsirisApi, "apiKeys", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeysRepo
    return handlers
      .handleRaw("create", () =>
        Effect.gen(function*() {
          const caller = yield* CurrentKey
          if (!Auth.hasScope(caller, "keys:manage")) return Auth.lacksScope("keys:manage")
          const body = yield* Body.decode(
            CreateBody,
            `{"name": 1..100 characters, "scopes"?: [${SCOPES.join(", ")}], "default_request_mode"?: "sync" | "async"}`
          )
          if (Either.isLeft(body)) return body.left
          const created = yield* keys.create({
            applicationId: caller.applicationId,
            environment: caller.environment,
            name: body.right.name,
            scopes: body.right.scopes ?? [...SCOPES],
            ...(body.right.default_request_mode === undefined
              ? {}
              : { defaultRequestMode: body.right.default_request_mode })
          })
          return json(201, { ...view(created.record), key: Redacted.value(created.key) })
        }))
      .handleRaw("list", () =>
        Effect.gen(function*() {
          const caller = yield* CurrentKey
          if (!Auth.hasScope(caller, "keys:manage")) return Auth.lacksScope("keys:manage")
          return json(200, { data: (yield* keys.list(caller.applicationId, caller.environment)).map(view) })
        }))
      .handleRaw("revoke", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* CurrentKey
          if (!Auth.hasScope(caller, "keys:manage")) return Auth.lacksScope("keys:manage")
          const other = caller.environment === "SANDBOX" ? "PRODUCTION" : "SANDBOX"
          const ids = (yield* keys.list(caller.applicationId, caller.environment)).map((k) => k.id)
          if (!ids.includes(path.id)) {
            // The application's key of the other environment is 403 (as every resource); any other id 404.
            const others = (yield* keys.list(caller.applicationId, other)).map((k) => k.id)
            return others.includes(path.id)
              ? json(403, {
                detail: `A ${caller.environment.toLowerCase()} key cannot manage ${other.toLowerCase()} keys.`
              })
              : json(404, { detail: "API key not found." })
          }
          const revoked = yield* keys.revoke(caller.applicationId, path.id)
          return Option.match(revoked, {
            onNone: () => json(404, { detail: "API key not found." }),
            onSome: (k) => json(200, view(k))
          })
        }))
  }))
