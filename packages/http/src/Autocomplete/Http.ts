/**
 * `GET /autocomplete/businesses?q=&state=&limit=` (DECISIONS section 4): businesses of the key's
 * registry whose names answer what was typed, each with a business token for `POST /searches`
 * (bound to the caller's application and environment, alive 15 minutes). `q` 1..200 characters,
 * `state` a two-letter code, `limit` 1..20 (default 5). Scope `businesses:read`.
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { type RequestValidation } from "@osiris/core"
import { Clock, Effect } from "effect"
import { CurrentKey, OsirisApi } from "../Api.js"
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
        if (key.scopes.length > 0 && !key.scopes.includes("businesses:read")) {
          return Body.json(403, { detail: "This key lacks the businesses:read scope." })
        }
        const req = yield* HttpServerRequest.HttpServerRequest
        const params = new URL(req.url, "http://host").searchParams
        // A repeated parameter: the last value wins (as for GET /searches, and in Starlette).
        const query = { get: (name: string) => params.getAll(name).at(-1) ?? null }
        const q = query.get("q")
        const state = query.get("state") ?? undefined
        const limitText = query.get("limit") ?? "5"
        const errors: Array<RequestValidation.ErrorDetail> = []
        if (q === null) errors.push({ type: "missing", loc: ["query", "q"], msg: "Field required", input: null })
        else if ([...q.trim()].length < 1 || [...q].length > 200) {
          errors.push({
            type: "value_error",
            loc: ["query", "q"],
            msg: "Value error, q has 1 to 200 characters",
            input: q,
            ctx: { error: {} }
          })
        }
        if (state !== undefined && !/^[A-Za-z]{2}$/.test(state)) {
          errors.push({
            type: "value_error",
            loc: ["query", "state"],
            msg: "Value error, state is a two-letter code",
            input: state,
            ctx: { error: {} }
          })
        }
        const limit = /^\d{1,2}$/.test(limitText) ? Number(limitText) : NaN
        if (!(limit >= 1 && limit <= 20)) {
          errors.push({
            type: "value_error",
            loc: ["query", "limit"],
            msg: "Value error, limit is 1 to 20",
            input: limitText,
            ctx: { error: {} }
          })
        }
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
