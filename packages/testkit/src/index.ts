/**
 * Osiris sandbox testkit: the fixture registry, an in-process sandbox host, a movable clock and a
 * webhook receiver for test suites.
 */
export * as Fixtures from "./Fixtures.js"
export * as SandboxClock from "./SandboxClock.js"
export { type SandboxHost, type SandboxHostOptions, startSandboxHost } from "./SandboxHost.js"
export * as WebhookSink from "./WebhookSink.js"
