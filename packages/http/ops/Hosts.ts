/**
 * Shared by the operator commands (`npm run fuzz`, `npm run chaos`, `npm run bench:http`): real host
 * processes (the testkit's `HostProcess`) on a PostgreSQL database made for the run and dropped
 * after it, keys made in that database, and queries on it.
 */
import type { SqlClient } from "@effect/sql"
import { SqlClient as Sql } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { HostProcess as HostProcesses } from "@osiris/testkit"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { join } from "node:path"
import { ApiKeys, Database, Host } from "../src/index.js"

export const ROOT = join(import.meta.dirname, "..", "..", "..")

/** The PostgreSQL server the commands use (DATABASE_URL, else the machine's at 127.0.0.1:5432). */
export const adminUrl = () => process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** Starts the host program against `databaseUrl` (see the testkit's `HostProcess`). */
export const startHost = (databaseUrl: string, env: Record<string, string> = {}) =>
  HostProcesses.start({ DATABASE_URL: databaseUrl, ...env })

/** A running host process. */
export type HostProcess = HostProcesses.HostProcess

/** A scratch database with the host's migrations; keys and queries on it. */
export const scratch = async () => {
  const runtime = ManagedRuntime.make(Host.layerRepos.pipe(Layer.provideMerge(Database.layerScratch(adminUrl()))))
  const url = await runtime.runPromise(Effect.map(PgClient.PgClient, (pg) => Redacted.value(pg.config.url!)))
  return {
    url,
    /** A new application with a sandbox and a production key. */
    newKeys: (name = `ops-${Math.random().toString(36).slice(2)}`) =>
      runtime.runPromise(Effect.gen(function*() {
        const keys = yield* ApiKeys.ApiKeysRepo
        const app = yield* keys.ensureApplication(name)
        const sandbox = yield* keys.create({ applicationId: app.id, environment: "SANDBOX", name: "s", scopes: [] })
        const live = yield* keys.create({ applicationId: app.id, environment: "PRODUCTION", name: "p", scopes: [] })
        return { app, sandbox: Redacted.value(sandbox.key), live: Redacted.value(live.key) }
      })),
    /** A query on a connection of its own (so it works after the database was restarted under the run). */
    query: <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
      Effect.runPromise(
        Effect.flatMap(Sql.SqlClient, f).pipe(
          Effect.provide(Database.layerPostgres(Redacted.make(url), { maxConnections: 1 })),
          Effect.scoped
        )
      ),
    dispose: () => runtime.dispose()
  }
}
