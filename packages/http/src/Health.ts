/** Liveness and readiness: ready when the database answers (503 `{"detail"}` when it does not). */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import { OsirisApi } from "./Api.js"

/** The health handlers. */
export const layer = HttpApiBuilder.group(OsirisApi, "health", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    return handlers
      .handle("live", () => Effect.succeed({ status: "ok" as const }))
      .handleRaw("ready", () =>
        sql`select 1`.pipe(
          Effect.timeout("2 seconds"),
          Effect.as(HttpServerResponse.unsafeJson({ status: "ok" })),
          Effect.catchAll(() =>
            Effect.succeed(HttpServerResponse.unsafeJson({ detail: "Storage is unavailable." }, { status: 503 }))
          )
        ))
  }))
