/**
 * The storage backends every storage suite runs against: the embedded default (PGlite, in memory),
 * and the PostgreSQL server at DATABASE_URL when it is set, in a database made for the suite and
 * dropped after it, so runs never collide.
 */
import { SqlClient } from "@effect/sql"
import { type PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { Database } from "../src/index.js"

/** A backend: its name, and a layer that opens a fresh, empty database. */
export interface Backend {
  readonly name: string
  readonly fresh: () => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
  /** A second, independent client to the same database (another "process"), when the backend has one. */
  readonly sameDatabase?: (url: string) => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
}

const withDatabase = (url: URL, database: string) => {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

/** The backends of this run. */
export const backends = (): ReadonlyArray<Backend> => {
  const out: Array<Backend> = [{ name: "embedded PGlite", fresh: () => Database.layerEmbedded(undefined) }]
  const env = process.env.DATABASE_URL
  if (env !== undefined && env !== "") {
    const admin = new URL(env)
    out.push({
      name: "PostgreSQL (DATABASE_URL)",
      fresh: () =>
        Layer.unwrapScoped(Effect.gen(function*() {
          const name = `osiris_test_${randomBytes(6).toString("hex")}`
          const adminLayer = Database.layerPostgres(Redacted.make(admin.toString()), { maxConnections: 1 })
          const runAdmin = <A, E>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
            Effect.flatMap(SqlClient.SqlClient, f).pipe(Effect.provide(adminLayer), Effect.scoped)
          yield* Effect.acquireRelease(
            runAdmin((sql) => sql.unsafe(`create database ${name}`)),
            () => runAdmin((sql) => sql.unsafe(`drop database if exists ${name} with (force)`)).pipe(Effect.orDie)
          )
          return Database.layerPostgres(Redacted.make(withDatabase(admin, name)))
        })),
      sameDatabase: (url) => Database.layerPostgres(Redacted.make(url))
    })
  }
  return out
}
