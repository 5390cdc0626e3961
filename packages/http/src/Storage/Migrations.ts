/**
 * Migrations, run at start. Safe when several processes start at once on one database: the
 * migrations table is created under a transaction-scoped advisory lock, and `@effect/sql`'s
 * Migrator then runs pending migrations inside a transaction holding `LOCK TABLE ... ACCESS
 * EXCLUSIVE`, so a second process waits and finds nothing left to do.
 */
import { Migrator, SqlClient } from "@effect/sql"
import { migration as webhooks } from "@osiris/webhooks"
import { Effect } from "effect"
import init from "../migrations/0001_init.js"
import orderables from "../migrations/0003_orderables.js"
import businessTokens from "../migrations/0004_business_tokens.js"
import registry from "../migrations/0005_registry.js"

/** The migrations, in order. */
export const migrations = {
  "0001_init": init,
  "0002_webhooks": webhooks,
  "0003_orderables": orderables,
  "0004_business_tokens": businessTokens,
  "0005_registry": registry
}

const TABLE = "osiris_migrations"

/** A constant advisory-lock key for migrating (any 64-bit number unique to Osiris). */
const LOCK_KEY = 7_203_110_945_118

/** Runs pending migrations; returns the ones this process ran. */
export const run = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`select pg_advisory_xact_lock(${LOCK_KEY})`
    yield* sql`create table if not exists ${sql(TABLE)} (
      migration_id integer primary key,
      created_at timestamp with time zone not null default now(),
      name text not null
    )`
  }))
  return yield* Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: TABLE })
})
