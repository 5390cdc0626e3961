/**
 * Osiris sandbox testkit: the fixture registry, an in-process sandbox host, the host as a layer for
 * Effect suites over either storage backend, a movable clock and a webhook receiver for test suites.
 */
export * as Backends from "./Backends.js"
export * as Fixtures from "./Fixtures.js"
export * as HostProcess from "./HostProcess.js"
export * as SandboxClock from "./SandboxClock.js"
export { type SandboxHost, type SandboxHostOptions, startSandboxHost } from "./SandboxHost.js"
export * as Template from "./Template.js"
export * as TestHost from "./TestHost.js"
export * as WebhookSink from "./WebhookSink.js"
