/** Osiris webhooks: Standard Webhooks signatures, the event catalogue, the retry schedule. */
export * as Events from "./Events.js"
export * as Retry from "./Retry.js"
export * as Signature from "./Signature.js"
