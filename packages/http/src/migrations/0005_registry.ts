/**
 * The production registry in the database: contract Business records (imported with
 * `osiris registry import`) and their blocking keys, the same keys the engine's memory index votes
 * on, so retrieval runs on indexes without loading the registry into memory.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create table registry_businesses (
    id uuid primary key,
    record jsonb not null,
    ein text,
    imported_at timestamp(6) without time zone not null default (now() at time zone 'utc')
  )`
  yield* sql`create index registry_businesses_ein on registry_businesses (ein) where ein is not null`
  yield* sql`create table registry_keys (
    key text not null,
    business_id uuid not null references registry_businesses (id) on delete cascade,
    primary key (key, business_id)
  )`
  yield* sql`create index registry_keys_business on registry_keys (business_id)`
})
