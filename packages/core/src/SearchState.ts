/**
 * The search lifecycle (DECISIONS section 6): PENDING -> EXECUTING -> COMPLETED | FAILED, and
 * PENDING or EXECUTING -> CANCELLED. Terminal states are final; every transition sets
 * `updated_at`, which never goes backwards even when the clock does.
 */
import { Data, Either } from "effect"
import { type Timestamp } from "./Formats.js"
import { type SearchState } from "./Search.js"

/** What can happen to a search. */
export type SearchEvent = "Start" | "Complete" | "Fail" | "Cancel"

/** The state each event leads to. */
export const target: Readonly<Record<SearchEvent, SearchState>> = {
  Start: "EXECUTING",
  Complete: "COMPLETED",
  Fail: "FAILED",
  Cancel: "CANCELLED"
}

const allowed: Readonly<Record<SearchState, ReadonlyArray<SearchState>>> = {
  PENDING: ["EXECUTING", "CANCELLED"],
  EXECUTING: ["COMPLETED", "FAILED", "CANCELLED"],
  COMPLETED: [],
  FAILED: [],
  CANCELLED: []
}

/** States a search never leaves. */
export const isTerminal = (state: SearchState): boolean => allowed[state].length === 0

/** A transition the lifecycle does not allow, naming both states. */
export class IllegalTransition extends Data.TaggedError("IllegalTransition")<{
  readonly from: SearchState
  readonly to: SearchState
}> {
  override get message() {
    return `A search cannot go from ${this.from} to ${this.to}`
  }
}

/** Anything with a lifecycle state and an update time (a Search, a stored search row). */
export interface Stateful {
  readonly state: SearchState
  readonly updated_at: Timestamp
}

/** Applies an event at `now`; `updated_at` becomes the later of `now` and the previous value. */
export const transition = <S extends Stateful>(
  search: S,
  event: SearchEvent,
  now: Timestamp
): Either.Either<S, IllegalTransition> => {
  const to = target[event]
  if (!allowed[search.state].includes(to)) return Either.left(new IllegalTransition({ from: search.state, to }))
  // Wire timestamps have a fixed width, so string order is time order.
  const updated_at = now > search.updated_at ? now : search.updated_at
  return Either.right({ ...search, state: to, updated_at })
}
