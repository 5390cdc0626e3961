/**
 * The console routes (DECISIONS section 4): `/console/searches/<id>` and `/console/business/<id>`
 * (`{console_url}` defaults to `{base_url}/console`). A browser signs in with HTTP Basic (any user
 * name, the API key as password), which works without JavaScript; programs may send `X-API-Key`.
 * The same tenancy as the API: another application's search is 404, the other environment's 403.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Business } from "@osiris/core"
import { type Context, Effect } from "effect"
import { type ApiKey, ApiKeysRepo } from "../ApiKeys/Repo.js"
import { OrderablesRepo } from "../Orderables/Repo.js"
import { SearchesRepo } from "../Searches/Repo.js"
import { Engines } from "../Searches/Worker.js"
import * as Pages from "./Pages.js"

const html = (status: number, body: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(body, { status, contentType: "text/html; charset=utf-8", headers })

const message = (status: number, title: string, text: string, headers: Record<string, string> = {}) =>
  html(
    status,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${Pages.escape(title)}</title></head><body><h1>${
      Pages.escape(title)
    }</h1><p>${Pages.escape(text)}</p></body></html>`,
    headers
  )

/** The key presented in `X-API-Key`, or as the password of HTTP Basic. */
const presentedKey = (headers: Readonly<Record<string, string | undefined>>) => {
  const direct = headers["x-api-key"]
  if (direct !== undefined && direct !== "") return direct
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(headers["authorization"] ?? "")
  if (m === null) return undefined
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8")
  const colon = decoded.indexOf(":")
  return colon < 0 ? undefined : decoded.slice(colon + 1)
}

/** Runs a page handler for an authenticated key, or answers 401 with a Basic challenge. */
const authenticated = (keys: Context.Tag.Service<ApiKeysRepo>) =>
<E, R>(
  f: (key: ApiKey, id: string) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function*() {
    const req = yield* HttpServerRequest.HttpServerRequest
    const key = yield* Effect.either(keys.authenticate(presentedKey(req.headers)))
    if (key._tag === "Left") {
      return message(401, "Sign in", "Sign in with your API key as the password.", {
        "www-authenticate": "Basic realm=\"Osiris console\", charset=\"UTF-8\""
      })
    }
    const id = decodeURIComponent(new URL(req.url, "http://host").pathname.split("/").pop() ?? "")
    return yield* f(key.right, id)
  })

/** The console's routes on the API's router. */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const searches = yield* SearchesRepo
    const orderables = yield* OrderablesRepo
    const engines = yield* Engines
    const signedIn = authenticated(yield* ApiKeysRepo)
    yield* router.get(
      "/console/searches/:id",
      signedIn((key, id) =>
        Effect.gen(function*() {
          const found = yield* searches.get(key.applicationId, id)
          if (found._tag === "None") return message(404, "Not found", "There is no such search.")
          if (found.value.environment !== key.environment) {
            return message(403, "Forbidden", `A ${key.environment.toLowerCase()} key cannot read this search.`)
          }
          const extras = yield* orderables.bySearch(key.applicationId, id)
          return html(200, Pages.searchPage(found.value.body, extras.map((o) => o.record)))
        })
      )
    )
    yield* router.get(
      "/console/business/:id",
      signedIn((key, id) =>
        Effect.gen(function*() {
          const b = yield* engines[key.environment].business(id)
          if (b === undefined) return message(404, "Not found", "There is no such business.")
          return html(200, Pages.businessPage(b, Business.statusOf(b)))
        })
      )
    )
  })
)
