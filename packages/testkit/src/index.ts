/** Osiris sandbox testkit: the fixture registry, a movable clock and a webhook receiver for test suites. */
export * as Fixtures from "./Fixtures.js"
export * as SandboxClock from "./SandboxClock.js"
export * as WebhookSink from "./WebhookSink.js"
