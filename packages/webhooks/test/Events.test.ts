import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Events } from "../src/index.js"

describe("Event catalogue (DECISIONS section 8)", () => {
  it("has every event type", () => {
    expect(Object.keys(Events.events).sort()).toStrictEqual([
      "APIKey.created",
      "APIKey.deleted",
      "BusinessSearch.cancelled",
      "BusinessSearch.completed",
      "BusinessSearch.failed",
      "BusinessSearch.submitted",
      "BusinessSearch.updated",
      "EnhancedSearchRequest.completed",
      "NAICSPredictionRequest.completed",
      "PepScreeningRequest.completed",
      "WebsiteAnalysisRequest.completed"
    ])
  })

  it("refuses an envelope whose data does not fit its type", () => {
    const decode = Schema.decodeUnknownEither(Events.WebhookEvent)
    expect(decode({ type: "APIKey.created", timestamp: "2026-11-21T12:00:00.000000", data: { id: "nope" } })._tag).toBe(
      "Left"
    )
    expect(decode({ type: "Unknown.event", timestamp: "2026-11-21T12:00:00.000000", data: {} })._tag).toBe("Left")
  })

  it.prop("events round-trip through their wire form", [Events.WebhookEvent], ([e]) => {
    const wire = JSON.parse(JSON.stringify(Schema.encodeSync(Events.WebhookEvent)(e)))
    expect(Schema.encodeSync(Events.WebhookEvent)(Schema.decodeUnknownSync(Events.WebhookEvent)(wire))).toStrictEqual(
      wire
    )
  }, { fastCheck: { numRuns: 25 } })
})
