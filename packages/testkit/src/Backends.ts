/**
 * The storage backends a suite runs against: the embedded default (PGlite, in memory), and the
 * PostgreSQL server at `DATABASE_URL` when it is set, in a database made for the suite and dropped
 * after it, so runs never collide.
 */
import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { Database } from "@osiris/http"
import { Effect, Layer, Redacted } from "effect"
import * as Template from "./Template.js"

/** A backend: its name, and layers that open a fresh database. */
export interface Backend {
  readonly name: string
  /** A fresh, empty database (no migrations run). */
  readonly fresh: () => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
  /** A fresh database with the host's migrations run (the embedded one starts from the shipped template). */
  readonly migrated: () => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
  /** A second, independent client to the same database (another "process"), when the backend has one. */
  readonly sameDatabase?: (url: string) => Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
}

/** The embedded backend. */
export const embedded: Backend = {
  name: "embedded PGlite",
  fresh: () => Database.layerEmbedded(undefined),
  migrated: () =>
    Layer.unwrapEffect(
      Effect.map(Effect.promise(Template.get), (template) => Database.layerEmbedded(undefined, { template }))
    )
}

/** A PostgreSQL server: a scratch database per layer, made through `adminUrl`. */
export const postgres = (adminUrl: string): Backend => ({
  name: "PostgreSQL (DATABASE_URL)",
  fresh: () => Database.layerScratch(adminUrl),
  migrated: () => Database.layerScratch(adminUrl),
  sameDatabase: (url) => Database.layerPostgres(Redacted.make(url))
})

/** The backends of this run: embedded, and PostgreSQL when `DATABASE_URL` is set. */
export const all = (): ReadonlyArray<Backend> => {
  const url = process.env.DATABASE_URL
  return url === undefined || url === "" ? [embedded] : [embedded, postgres(url)]
}
