/** Osiris webhooks: Standard Webhooks signatures, the event catalogue, the outbound guard, the outbox and its delivery worker. */
export * as Dispatcher from "./Dispatcher.js"
export * as Events from "./Events.js"
export * as Guard from "./Guard.js"
export { default as migration } from "./Migration.js"
export * as Retry from "./Retry.js"
export * as Sender from "./Sender.js"
export * as Signature from "./Signature.js"
export * as Store from "./Store.js"
