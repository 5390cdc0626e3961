/**
 * Orderables (one per option of a search, durable work items that run after their search) and the
 * usage ledger (billable events of production work, at most one per resource).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create table orderables (
    id uuid primary key,
    search_id uuid not null references searches (id),
    application_id uuid not null references applications (id),
    environment text not null,
    option text not null,
    type text not null,
    state text not null check (state in ('PENDING', 'EXECUTING', 'COMPLETED', 'FAILED', 'CANCELLED')),
    reference_id text,
    business_id uuid,
    result jsonb,
    error text,
    created_at timestamp(6) without time zone not null,
    updated_at timestamp(6) without time zone not null,
    lease_owner text,
    lease_until timestamp(6) without time zone,
    attempts integer not null default 0
  )`
  yield* sql`create index orderables_search on orderables (search_id)`
  yield* sql`create index orderables_open on orderables (created_at) where state in ('PENDING', 'EXECUTING')`
  yield* sql`create table usage_records (
    id bigint generated always as identity primary key,
    application_id uuid not null references applications (id),
    environment text not null,
    kind text not null,
    resource_id uuid not null,
    at timestamp(6) without time zone not null,
    unique (kind, resource_id)
  )`
  yield* sql`create index usage_records_day on usage_records (application_id, environment, at)`
})
