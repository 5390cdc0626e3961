/** Osiris sandbox testkit: a movable clock and a webhook receiver for test suites. */
export * as SandboxClock from "./SandboxClock.js"
export * as WebhookSink from "./WebhookSink.js"
