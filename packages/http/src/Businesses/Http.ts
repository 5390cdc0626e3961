/**
 * `GET /businesses/{id}` and `/businesses/{id}/status` (DECISIONS section 4), scope
 * `businesses:read`. A key reads the registry its environment searches: a business of the other
 * environment's registry is 403, an unknown id 404.
 */
import { HttpApiBuilder, type HttpServerResponse } from "@effect/platform"
import { Business } from "@osiris/core"
import { Effect, Either } from "effect"
import { CurrentKey, OsirisApi } from "../Api.js"
import * as Auth from "../Auth.js"
import * as Body from "../Body.js"
import { Engines } from "../Searches/Worker.js"

/** The businesses handlers. */
export const layer = HttpApiBuilder.group(OsirisApi, "businesses", (handlers) =>
  Effect.gen(function*() {
    const engines = yield* Engines
    const find = (
      id: string
    ): Effect.Effect<Either.Either<Business.Business, HttpServerResponse.HttpServerResponse>, never, CurrentKey> =>
      Effect.gen(function*() {
        const key = yield* CurrentKey
        if (!Auth.hasScope(key, "businesses:read")) return Either.left(Auth.lacksScope("businesses:read"))
        const other = key.environment === "SANDBOX" ? "PRODUCTION" : "SANDBOX"
        const found = yield* engines[key.environment].business(id)
        if (found !== undefined) return Either.right(found)
        if ((yield* engines[other].business(id)) !== undefined) {
          return Either.left(Body.json(403, {
            detail: `A ${key.environment.toLowerCase()} key cannot read ${other.toLowerCase()} businesses.`
          }))
        }
        return Either.left(Body.json(404, { detail: "Business not found." }))
      })
    return handlers
      .handleRaw("get", ({ path }) =>
        Effect.map(find(path.id), Either.match({ onLeft: (r) => r, onRight: (b) => Body.json(200, b) })))
      .handleRaw("status", ({ path }) =>
        Effect.map(
          find(path.id),
          Either.match({
            onLeft: (r) =>
              r,
            onRight: (b) => Body.json(200, Business.statusOf(b))
          })
        ))
  }))
