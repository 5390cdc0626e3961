import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as fc from "fast-check"
import { Formats, type Search, SearchState } from "../src/index.js"

const at = (ms: number) => Formats.timestampFromMillis(ms)
const start = { state: "PENDING" as Search.SearchState, updated_at: at(1_700_000_000_000) }
const events = fc.constantFrom<SearchState.SearchEvent>("Start", "Complete", "Fail", "Cancel")

describe("SearchState.transition", () => {
  it("follows PENDING -> EXECUTING -> COMPLETED | FAILED", () => {
    const executing = Either.getOrThrow(SearchState.transition(start, "Start", at(1_700_000_000_500)))
    expect(executing.state).toBe("EXECUTING")
    expect(executing.updated_at).toBe(at(1_700_000_000_500))
    expect(Either.getOrThrow(SearchState.transition(executing, "Complete", at(1_700_000_001_000))).state).toBe(
      "COMPLETED"
    )
    expect(Either.getOrThrow(SearchState.transition(executing, "Fail", at(1_700_000_001_000))).state).toBe("FAILED")
  })

  it("cancels from PENDING and EXECUTING only", () => {
    expect(Either.getOrThrow(SearchState.transition(start, "Cancel", at(1))).state).toBe("CANCELLED")
    const executing = { ...start, state: "EXECUTING" as const }
    expect(Either.getOrThrow(SearchState.transition(executing, "Cancel", at(1))).state).toBe("CANCELLED")
  })

  it("names both states in an illegal transition", () => {
    const r = SearchState.transition(start, "Complete", at(2))
    expect(Either.isLeft(r)).toBe(true)
    if (Either.isLeft(r)) {
      expect(r.left).toBeInstanceOf(SearchState.IllegalTransition)
      expect([r.left.from, r.left.to]).toStrictEqual(["PENDING", "COMPLETED"])
      expect(r.left.message).toBe("A search cannot go from PENDING to COMPLETED")
    }
  })

  it.prop(
    "no sequence of events leaves a terminal state, and updated_at never goes backwards",
    [fc.array(fc.tuple(events, fc.integer({ min: 0, max: 4_000_000_000_000 })), { maxLength: 30 })],
    ([steps]) => {
      let s = start
      let terminalReached: Search.SearchState | undefined
      for (const [event, ms] of steps) {
        const r = SearchState.transition(s, event, at(ms))
        if (terminalReached !== undefined) {
          expect(Either.isLeft(r)).toBe(true)
          continue
        }
        if (Either.isRight(r)) {
          expect(r.right.updated_at >= s.updated_at).toBe(true)
          expect(r.right.updated_at >= at(ms)).toBe(true)
          s = r.right
          if (SearchState.isTerminal(s.state)) terminalReached = s.state
        }
      }
      if (terminalReached !== undefined) expect(s.state).toBe(terminalReached)
    }
  )
})
