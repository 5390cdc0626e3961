/**
 * The webhook tables, for the host's migrations: endpoints (per application and environment, with
 * their signing secrets, since Standard Webhooks signs with a shared secret), events (the outbox:
 * the exact body sent, written in the transaction of the change that caused it), deliveries (one per
 * endpoint per event, a durable work item with a due time and a lease) and attempts (every try, kept).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create table webhook_endpoints (
    id uuid primary key,
    application_id uuid not null references applications (id),
    environment text not null check (environment in ('SANDBOX', 'PRODUCTION')),
    url text not null,
    description text,
    event_types text[] not null,
    secret text not null,
    previous_secret text,
    previous_secret_until timestamp(6) without time zone,
    created_at timestamp(6) without time zone not null,
    updated_at timestamp(6) without time zone not null,
    disabled_at timestamp(6) without time zone,
    disabled_reason text,
    deleted_at timestamp(6) without time zone
  )`
  yield* sql`create index webhook_endpoints_live on webhook_endpoints (application_id, environment)
    where deleted_at is null and disabled_at is null`
  yield* sql`create table webhook_events (
    id uuid primary key,
    application_id uuid not null references applications (id),
    environment text not null,
    type text not null,
    payload text not null,
    created_at timestamp(6) without time zone not null
  )`
  yield* sql`create table webhook_deliveries (
    id uuid primary key,
    event_id uuid not null references webhook_events (id),
    endpoint_id uuid not null references webhook_endpoints (id),
    state text not null check (state in ('PENDING', 'DELIVERED', 'EXHAUSTED', 'DISCARDED')),
    attempts integer not null default 0,
    next_attempt_at timestamp(6) without time zone,
    lease_owner text,
    lease_until timestamp(6) without time zone,
    last_status integer,
    last_error text,
    created_at timestamp(6) without time zone not null,
    updated_at timestamp(6) without time zone not null,
    unique (event_id, endpoint_id)
  )`
  yield* sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'PENDING'`
  yield* sql`create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id desc)`
  yield* sql`create table webhook_attempts (
    id bigint generated always as identity primary key,
    delivery_id uuid not null references webhook_deliveries (id),
    attempt integer not null,
    at timestamp(6) without time zone not null,
    status integer,
    latency_ms integer not null,
    error text,
    response text
  )`
  yield* sql`create index webhook_attempts_delivery on webhook_attempts (delivery_id, id)`
})
