/**
 * `GET /<kind>/{id}` for each option's records (DECISIONS section 4), scope `searches:read`.
 * Another application's record is 404, the other environment's 403.
 */
import { HttpApiBuilder } from "@effect/platform"
import type { Search } from "@osiris/core"
import { Effect, Option } from "effect"
import { CurrentKey, OsirisApi } from "../Api.js"
import * as Auth from "../Auth.js"
import * as Body from "../Body.js"
import { OrderablesRepo } from "./Repo.js"

/** The orderables handlers. */
export const layer = HttpApiBuilder.group(OsirisApi, "orderables", (handlers) =>
  Effect.gen(function*() {
    const repo = yield* OrderablesRepo
    const read = (option: Search.Option) => ({ path }: { readonly path: { readonly id: string } }) =>
      Effect.gen(function*() {
        const key = yield* CurrentKey
        if (!Auth.hasScope(key, "searches:read")) return Auth.lacksScope("searches:read")
        const found = yield* repo.get(key.applicationId, option, path.id)
        if (Option.isNone(found)) return Body.json(404, { detail: "Record not found." })
        if (found.value.environment !== key.environment) {
          return Body.json(403, {
            detail:
              `A ${key.environment.toLowerCase()} key cannot read ${found.value.environment.toLowerCase()} resources.`
          })
        }
        return Body.json(200, found.value.record)
      })
    return handlers
      .handleRaw("websiteAnalysis", read("Order.WebsiteAnalysis"))
      .handleRaw("naicsPrediction", read("Order.NaicsPrediction"))
      .handleRaw("pepScreening", read("Order.Pep"))
      .handleRaw("enhanced", read("Order.Enhanced"))
  }))
