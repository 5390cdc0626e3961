/**
 * Business tokens (autocomplete): a host secret that signs them, shared by every process through
 * the database, and the business a token named, kept on the search it created.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create table host_secrets (
    name text primary key,
    value bytea not null,
    created_at timestamp(6) without time zone not null default (now() at time zone 'utc')
  )`
  yield* sql`alter table searches add column business_id uuid`
})
