/**
 * Running orderables: a loop that claims orderables whose search has finished and runs each with
 * its environment's provider. A search that FAILED (no business) fails its orderables with that
 * reason; a CANCELLED search cancels them. Any number of host processes share the work.
 */
import { Formats, type Search } from "@osiris/core"
import { Clock, type Duration, Effect } from "effect"
import { claimLoop } from "../Searches/Worker.js"
import { OrderProviders } from "./Providers.js"
import { type ClaimedOrderable, OrderablesRepo } from "./Repo.js"

/** Runs one claimed orderable and finishes it. */
export const execute = (claimed: ClaimedOrderable) =>
  Effect.gen(function*() {
    const repo = yield* OrderablesRepo
    const providers = (yield* OrderProviders)[claimed.environment]
    const now = Effect.map(Clock.currentTimeMillis, Formats.timestampFromMillis)
    const s = claimed.search
    if (s.state === "CANCELLED") {
      return yield* repo.finish(claimed, { state: "CANCELLED", result: null, error: null, at: yield* now })
    }
    if (s.state !== "COMPLETED") {
      return yield* repo.finish(claimed, {
        state: "FAILED",
        result: null,
        error: `The search did not complete (${s.state}): ${s.error ?? "no business was found."}`,
        at: yield* now
      })
    }
    const outcome = yield* providers.run(claimed.record.option as Search.Option, {
      search: s,
      request: (claimed.searchRequest ?? {}) as never
    }).pipe(Effect.either)
    return yield* repo.finish(
      claimed,
      outcome._tag === "Right"
        ? { state: "COMPLETED", result: outcome.right, error: null, at: yield* now }
        : { state: "FAILED", result: null, error: outcome.left.message, at: yield* now }
    )
  })

/** Claims and runs due orderables until interrupted. */
export const worker = (owner: string, options: { readonly poll?: Duration.DurationInput } = {}) =>
  Effect.flatMap(OrderablesRepo, (repo) =>
    claimLoop({
      claim: (leaseMillis) => repo.claim(owner, leaseMillis, 20),
      run: execute,
      release: (c) => repo.release(c.record.id, c.leaseOwner),
      what: "orderable",
      concurrency: 8,
      ...(options.poll === undefined ? {} : { poll: options.poll })
    }))
