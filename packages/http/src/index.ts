/** Osiris reference host: command line and (next) HTTP API. */
export * as Batch from "./Batch.js"
export * as Cli from "./Cli.js"
