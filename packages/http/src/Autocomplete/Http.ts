/**
 * `GET /autocomplete/businesses?q=&state=&limit=` (DECISIONS section 4): businesses of the key's
 * registry whose names answer what was typed, each with a business token for `POST /searches`
 * (bound to the caller's application and environment, alive 15 minutes). `q` 1..200 characters,
 * `state` a two-letter code, `limit` 1..20 (default 5). Scope `businesses:read`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { type RequestValidation } from "@osiris/core"
import { Clock, Effect } from "effect"
import { CurrentKey, OsirisApi } from "../Api.js"
import * as Auth from "../Auth.js"
import * as Body from "../Body.js"
import { BusinessTokens } from "../BusinessTokens.js"
import { Engines } from "../Searches/Worker.js"

/** The autocomplete handler. */
export const layer = HttpApiBuilder.group(OsirisApi, "autocomplete", (handlers) =>
  Effect.gen(function*() {
    const engines = yield* Engines
    const tokens = yield* BusinessTokens
    return handlers.handleRaw("businesses", () =>
      Effect.gen(function*() {
        const key = yield* CurrentKey
        if (!Auth.hasScope(key, "businesses:read")) return Auth.lacksScope("businesses:read")
        const query = yield* Body.query
        const q = query.get("q")
        const state = query.get("state") ?? undefined
        const limitText = query.get("limit") ?? "5"
        const limit = /^\d{1,2}$/.test(limitText) ? Number(limitText) : NaN
        const errors: Array<RequestValidation.ErrorDetail> = [
          ...(q === null
            ? [{ type: "missing", loc: ["query", "q"], msg: "Field required", input: null }]
            : [...q.trim()].length < 1 || [...q].length > 200
            ? [Body.valueErrorDetail(["query", "q"], "q has 1 to 200 characters", q)]
            : []),
          ...(state !== undefined && !/^[A-Za-z]{2}$/.test(state)
            ? [Body.valueErrorDetail(["query", "state"], "state is a two-letter code", state)]
            : []),
          ...(limit >= 1 && limit <= 20
            ? []
            : [Body.valueErrorDetail(["query", "limit"], "limit is 1 to 20", limitText)])
        ]
        if (errors.length > 0) return Body.unprocessable(errors)
        const found = yield* engines[key.environment].suggest({ q: q!, state, limit })
        const nowMillis = yield* Clock.currentTimeMillis
        return Body.json(200, {
          suggestions: found.map(({ business: b, match }) => {
            const a = b.primary_address ?? b.addresses[0] ?? null
            const city = a?.city ?? null
            const st = a?.state ?? null
            return {
              business_token: tokens.issue({
                businessId: b.id,
                applicationId: key.applicationId,
                environment: key.environment,
                nowMillis
              }),
              label: [b.name, [city, st].filter((x) => x !== null).join(", ")].filter((x) => x !== "").join(" — "),
              name: b.name,
              city,
              state: st,
              structure: b.structure,
              match
            }
          })
        })
      }))
  }))
