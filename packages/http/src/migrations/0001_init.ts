/**
 * The first schema: applications and API keys (hashes only), searches as durable work items with a
 * lease, and idempotency keys scoped to application, environment and resource type (DECISIONS
 * sections 2 and 3). Later migrations add orderables, the event outbox and deliveries.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create table applications (
    id uuid primary key,
    name text not null unique,
    created_at timestamp(6) without time zone not null
  )`
  yield* sql`create table api_keys (
    id uuid primary key,
    application_id uuid not null references applications (id),
    environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
    name text not null,
    prefix text not null,
    key_hash bytea not null unique,
    scopes text[] not null,
    default_request_mode text not null default 'sync' check (default_request_mode in ('sync', 'async')),
    created_at timestamp(6) without time zone not null,
    revoked_at timestamp(6) without time zone
  )`
  yield* sql`create table searches (
    id uuid primary key,
    application_id uuid not null references applications (id),
    environment text not null,
    state text not null check (state in ('PENDING', 'EXECUTING', 'COMPLETED', 'FAILED', 'CANCELLED')),
    reference_id text,
    request jsonb not null,
    body jsonb not null,
    created_at timestamp(6) without time zone not null,
    updated_at timestamp(6) without time zone not null,
    lease_owner text,
    lease_until timestamp(6) without time zone,
    attempts integer not null default 0
  )`
  yield* sql`create index searches_due on searches (lease_until) where state in ('PENDING', 'EXECUTING')`
  yield* sql`create index searches_listing on searches (application_id, environment, id desc)`
  yield* sql`create table idempotency_keys (
    application_id uuid not null references applications (id),
    environment text not null,
    resource text not null,
    key text not null,
    fingerprint text not null,
    resource_id uuid not null,
    created_at timestamp(6) without time zone not null,
    primary key (application_id, environment, resource, key)
  )`
})
