/**
 * The storage backends every storage suite runs against: the embedded default (PGlite, in memory),
 * and the PostgreSQL server at DATABASE_URL when it is set, in a database made for the suite and
 * dropped after it, so runs never collide.
 */
import type { SqlClient } from "@effect/sql"
import { type PgClient } from "@effect/sql-pg"
import type { Layer } from "effect"
import { Redacted } from "effect"
import { Database } from "../src/index.js"

/** A backend: its name, and a layer that opens a fresh, empty database. */
export interface Backend {
  readonly name: string
  readonly fresh: () => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
  /** A second, independent client to the same database (another "process"), when the backend has one. */
  readonly sameDatabase?: (url: string) => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
}

/** The backends of this run. */
export const backends = (): ReadonlyArray<Backend> => {
  const out: Array<Backend> = [{ name: "embedded PGlite", fresh: () => Database.layerEmbedded(undefined) }]
  const env = process.env.DATABASE_URL
  if (env !== undefined && env !== "") {
    out.push({
      name: "PostgreSQL (DATABASE_URL)",
      fresh: () => Database.layerScratch(env),
      sameDatabase: (url) => Database.layerPostgres(Redacted.make(url))
    })
  }
  return out
}
