/**
 * `GET /usage?from=YYYY-MM-DD&to=YYYY-MM-DD`: billable events per day and kind for the caller's
 * application and environment (production keys see their usage; sandbox work is never billed, so
 * a sandbox key sees none). Scope `usage:read`. Defaults: the last 30 days up to today (UTC).
 */
import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect } from "effect"
import { CurrentKey, OsirisApi } from "../Api.js"
import * as Auth from "../Auth.js"
import * as Body from "../Body.js"
import { UsageRepo } from "./Repo.js"

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
const day = (millis: number) => new Date(millis).toISOString().slice(0, 10)

/** The usage handlers. */
export const layer = HttpApiBuilder.group(OsirisApi, "usage", (handlers) =>
  Effect.gen(function*() {
    const usage = yield* UsageRepo
    return handlers.handleRaw("daily", () =>
      Effect.gen(function*() {
        const key = yield* CurrentKey
        if (!Auth.hasScope(key, "usage:read")) return Auth.lacksScope("usage:read")
        const query = yield* Body.query
        const now = yield* Clock.currentTimeMillis
        const from = query.get("from") ?? day(now - 29 * 86_400_000)
        const to = query.get("to") ?? day(now)
        for (const [name, value] of [["from", from], ["to", to]] as const) {
          if (!DATE.test(value) || Number.isNaN(Date.parse(value))) {
            return Body.valueError(["query", name], "expected a date YYYY-MM-DD", value)
          }
        }
        if (from > to) return Body.valueError(["query", "from"], "from is after to", from)
        const rows = yield* usage.daily({ applicationId: key.applicationId, environment: key.environment, from, to })
        return Body.json(200, {
          from,
          to,
          environment: key.environment,
          data: rows,
          total: rows.reduce((a, r) => a + r.count, 0)
        })
      }))
  }))
