/** Osiris reference host: storage, command line and (next) HTTP API. */
export * as ApiKeys from "./ApiKeys/Repo.js"
export * as Batch from "./Batch.js"
export * as Cli from "./Cli.js"
export * as Host from "./Host.js"
export * as Idempotency from "./Idempotency/Repo.js"
export * as Searches from "./Searches/Repo.js"
export * as Database from "./Storage/Database.js"
export * as Migrations from "./Storage/Migrations.js"
