/**
 * The last line of defence (DECISIONS section 5): a defect nothing answered (or a storage failure)
 * becomes 503 `{"detail": "Storage is unavailable."}` when the database could not be reached or
 * used, and 500 `{"detail": "Internal server error"}` otherwise, with nothing internal in the body
 * (the cause is logged). Failures the API declares (401, 422, ...) pass through to be encoded.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { SqlError } from "@effect/sql/SqlError"
import { Cause, Effect } from "effect"

const storageDown = (cause: Cause.Cause<unknown>) =>
  [...Cause.defects(cause), ...Cause.failures(cause)].some((e) => e instanceof SqlError)

/** Wraps an HTTP app so unanswered failures get the documented bodies. */
export const middleware = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R> =>
  app.pipe(
    Effect.catchAllCause((cause) => {
      const down = storageDown(cause)
      if (Cause.isInterruptedOnly(cause) || (!down && Cause.defects(cause).length === 0)) {
        return Effect.failCause(cause as Cause.Cause<never>)
      }
      return Effect.logError(down ? "storage unavailable" : "unhandled failure", cause).pipe(
        Effect.as(
          down
            ? HttpServerResponse.unsafeJson({ detail: "Storage is unavailable." }, {
              status: 503,
              headers: { "retry-after": "5" }
            })
            : HttpServerResponse.unsafeJson({ detail: "Internal server error" }, { status: 500 })
        )
      )
    })
  ) as HttpApp.Default<never, R>

/** Paths no route serves: 404 with the documented body (the router's own 404 has none). */
export const layerNotFound = HttpApiBuilder.Router.use((router) =>
  router.all("*", Effect.succeed(HttpServerResponse.unsafeJson({ detail: "Not found." }, { status: 404 })))
)
