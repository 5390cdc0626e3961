/**
 * The webhook store on the host's database: endpoints, the event outbox, deliveries and attempts.
 *
 * `publish` writes an event and one delivery per subscribed endpoint in one statement, on the
 * caller's connection: inside the caller's `withTransaction` it commits or rolls back with the change
 * that caused it. Workers `claim` due deliveries with `FOR UPDATE SKIP LOCKED` under a lease, so
 * several processes share delivery and a killed process only delays its claimed deliveries until
 * the lease runs out. Delivery times (due, lease) come from Effect's `Clock`, so a test can move
 * time forward through the retry schedule without waiting.
 */
import { SqlClient } from "@effect/sql"
import { Formats, Ids } from "@osiris/core"
import { Context, Effect, Layer, Option } from "effect"
import type { EventType } from "./Events.js"

/** SANDBOX or PRODUCTION. */
export type Environment = "SANDBOX" | "PRODUCTION"

/** A registered endpoint (never its secret, except at creation and rotation). */
export interface Endpoint {
  readonly id: string
  readonly applicationId: string
  readonly environment: Environment
  readonly url: string
  readonly description: string | null
  /** The event types delivered; empty means every type. */
  readonly eventTypes: ReadonlyArray<string>
  readonly createdAt: Formats.Timestamp
  readonly updatedAt: Formats.Timestamp
  readonly disabledAt: Formats.Timestamp | null
  readonly disabledReason: string | null
  /** Until when the previous secret still signs (after a rotation). */
  readonly previousSecretUntil: Formats.Timestamp | null
}

/** One attempt of a delivery. */
export interface AttemptRecord {
  readonly attempt: number
  readonly at: Formats.Timestamp
  readonly status: number | null
  readonly latencyMs: number
  readonly error: string | null
  readonly response: string | null
}

/** PENDING (due or waiting for a retry), DELIVERED, EXHAUSTED (kept, redeliverable), DISCARDED (endpoint gone). */
export type DeliveryState = "PENDING" | "DELIVERED" | "EXHAUSTED" | "DISCARDED"

/** A delivery with its attempts. */
export interface Delivery {
  readonly id: string
  readonly eventId: string
  readonly eventType: string
  readonly endpointId: string
  readonly state: DeliveryState
  readonly attempts: number
  readonly nextAttemptAt: Formats.Timestamp | null
  readonly lastStatus: number | null
  readonly lastError: string | null
  readonly createdAt: Formats.Timestamp
  readonly updatedAt: Formats.Timestamp
  readonly log: ReadonlyArray<AttemptRecord>
}

/** A delivery claimed by a worker: what to send, where, signed with which secrets. */
export interface ClaimedDelivery {
  readonly id: string
  readonly eventId: string
  readonly endpointId: string
  /** Attempts made before this one (since the last redelivery). */
  readonly attempts: number
  readonly payload: string
  readonly url: string
  readonly secret: string
  readonly previousSecret: string | null
  readonly previousSecretUntil: Formats.Timestamp | null
}

/** What a worker records after an attempt. */
export interface Outcome {
  readonly id: string
  readonly endpointId: string
  readonly attempt: number
  readonly at: Formats.Timestamp
  readonly status: number | null
  readonly latencyMs: number
  readonly error: string | null
  readonly response: string | null
  readonly state: DeliveryState
  readonly nextAttemptAt: Formats.Timestamp | null
  /** The receiver answered 410 Gone: disable the endpoint. */
  readonly gone: boolean
}

/** An event to publish. */
export interface NewEvent {
  readonly applicationId: string
  readonly environment: Environment
  readonly type: EventType
  readonly data: unknown
}

const TS = Formats.PG_TIMESTAMP

// PostgreSQL text cannot hold NUL; receivers' answers may.
const clean = (s: string | null) => (s === null ? null : s.replaceAll("\u0000", "\uFFFD"))

/** The webhook store. */
export class WebhookStore extends Context.Tag("@osiris/webhooks/WebhookStore")<WebhookStore, {
  /** Stores an event and its deliveries on the current connection (the caller's transaction); its id. */
  readonly publish: (event: NewEvent) => Effect.Effect<string>
  readonly createEndpoint: (input: {
    readonly applicationId: string
    readonly environment: Environment
    readonly url: string
    readonly description: string | null
    readonly eventTypes: ReadonlyArray<string>
    readonly secret: string
  }) => Effect.Effect<Endpoint>
  /** The application's endpoints in one environment (deleted ones left out). */
  readonly listEndpoints: (applicationId: string, environment: Environment) => Effect.Effect<ReadonlyArray<Endpoint>>
  /** An endpoint of the application (any environment), unless deleted. */
  readonly findEndpoint: (applicationId: string, id: string) => Effect.Effect<Option.Option<Endpoint>>
  /** Deletes an endpoint; its pending deliveries are discarded. */
  readonly deleteEndpoint: (applicationId: string, id: string) => Effect.Effect<boolean>
  /** Replaces the secret; the old one keeps signing (beside the new) until `overlapMillis` from now. */
  readonly rotateSecret: (
    applicationId: string,
    id: string,
    secret: string,
    overlapMillis: number
  ) => Effect.Effect<Option.Option<Endpoint>>
  /** The endpoint's deliveries, newest first, with their attempts. */
  readonly deliveries: (endpointId: string, limit: number) => Effect.Effect<ReadonlyArray<Delivery>>
  /**
   * Delivers an event of the application again to every subscribed endpoint, when it is of
   * `environment`; the event's environment and the deliveries queued.
   */
  readonly redeliver: (
    applicationId: string,
    eventId: string,
    environment: Environment
  ) => Effect.Effect<Option.Option<{ readonly environment: Environment; readonly deliveries: number }>>
  /** Claims up to `limit` due deliveries for `owner`. */
  readonly claim: (owner: string, leaseMillis: number, limit: number) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
  /** Records attempts (one statement for the batch) and disables endpoints that answered 410. */
  readonly record: (owner: string, outcomes: ReadonlyArray<Outcome>) => Effect.Effect<void>
  /** Hands back the deliveries `owner` holds (shutdown). */
  readonly release: (owner: string) => Effect.Effect<void>
}>() {
  /** The store on a migrated database. Requires `SqlClient` and `Ids`. */
  static readonly layer = Layer.effect(
    WebhookStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ids = yield* Ids.Ids
      const nowMillis = Effect.clockWith((c) => c.currentTimeMillis)
      const now = Effect.map(nowMillis, Formats.timestampFromMillis)
      const ts = (column: string) => sql.literal(`to_char(${column}, ${TS})`)
      const endpointColumns = sql.literal(`id, application_id, environment, url, description, event_types,
        to_char(created_at, ${TS}) as created_at, to_char(updated_at, ${TS}) as updated_at,
        to_char(disabled_at, ${TS}) as disabled_at, disabled_reason,
        to_char(previous_secret_until, ${TS}) as previous_secret_until`)

      return WebhookStore.of({
        publish: (event) =>
          Effect.gen(function*() {
            const id = yield* ids.next
            const at = yield* now
            const payload = JSON.stringify({ type: event.type, timestamp: at, data: event.data })
            yield* sql`with e as (
                insert into webhook_events (id, application_id, environment, type, payload, created_at)
                values (${id}, ${event.applicationId}, ${event.environment}, ${event.type}, ${payload}, ${at}::timestamp)
                returning id, application_id, environment, type, created_at)
              insert into webhook_deliveries (id, event_id, endpoint_id, state, next_attempt_at, created_at, updated_at)
              select gen_random_uuid(), e.id, p.id, 'PENDING', e.created_at, e.created_at, e.created_at
              from e join webhook_endpoints p on p.application_id = e.application_id and p.environment = e.environment
                and p.deleted_at is null and p.disabled_at is null
                and (cardinality(p.event_types) = 0 or e.type = any(p.event_types))`
            return id
          }).pipe(Effect.orDie),
        createEndpoint: (input) =>
          Effect.gen(function*() {
            const id = yield* ids.next
            const at = yield* now
            // Event types are catalogue names (no spaces), so a space-joined string splits back exactly.
            const rows = yield* sql<Endpoint>`insert into webhook_endpoints
                (id, application_id, environment, url, description, event_types, secret, created_at, updated_at)
              values (${id}, ${input.applicationId}, ${input.environment}, ${input.url}, ${input.description},
                coalesce(string_to_array(nullif(${input.eventTypes.join(" ")}, ''), ' '), '{}')::text[],
                ${input.secret}, ${at}::timestamp, ${at}::timestamp)
              returning ${endpointColumns}`
            return rows[0]!
          }).pipe(Effect.orDie),
        listEndpoints: (applicationId, environment) =>
          sql<Endpoint>`select ${endpointColumns} from webhook_endpoints
            where application_id = ${applicationId} and environment = ${environment} and deleted_at is null
            order by id`.pipe(Effect.orDie),
        findEndpoint: (applicationId, id) =>
          !Formats.isUuid(id) ? Effect.succeed(Option.none()) : Effect.map(
            sql<Endpoint>`select ${endpointColumns} from webhook_endpoints
              where id = ${id} and application_id = ${applicationId} and deleted_at is null`,
            (rows) => Option.fromNullable(rows[0])
          ).pipe(Effect.orDie),
        deleteEndpoint: (applicationId, id) =>
          !Formats.isUuid(id) ? Effect.succeed(false) : sql.withTransaction(Effect.gen(function*() {
            const at = yield* now
            const rows =
              yield* sql`update webhook_endpoints set deleted_at = ${at}::timestamp, updated_at = ${at}::timestamp
              where id = ${id} and application_id = ${applicationId} and deleted_at is null returning id`
            if (rows.length === 0) return false
            yield* sql`update webhook_deliveries set state = 'DISCARDED', updated_at = ${at}::timestamp,
                lease_owner = null, lease_until = null
              where endpoint_id = ${id} and state = 'PENDING'`
            return true
          })).pipe(Effect.orDie),
        rotateSecret: (applicationId, id, secret, overlapMillis) =>
          !Formats.isUuid(id) ? Effect.succeed(Option.none()) : Effect.gen(function*() {
            const at = yield* nowMillis
            const rows = yield* sql<
              Endpoint
            >`update webhook_endpoints set previous_secret = secret, secret = ${secret},
                previous_secret_until = ${Formats.timestampFromMillis(at + overlapMillis)}::timestamp,
                updated_at = ${Formats.timestampFromMillis(at)}::timestamp
              where id = ${id} and application_id = ${applicationId} and deleted_at is null
              returning ${endpointColumns}`
            return Option.fromNullable(rows[0])
          }).pipe(Effect.orDie),
        deliveries: (endpointId, limit) =>
          Effect.gen(function*() {
            const rows = yield* sql<Omit<Delivery, "log">>`select d.id, d.event_id, e.type as event_type, d.endpoint_id,
                d.state, d.attempts, ${ts("d.next_attempt_at")} as next_attempt_at, d.last_status, d.last_error,
                ${ts("d.created_at")} as created_at, ${ts("d.updated_at")} as updated_at
              from webhook_deliveries d join webhook_events e on e.id = d.event_id
              where d.endpoint_id = ${endpointId}
              order by d.created_at desc, d.id desc limit ${limit}`
            if (rows.length === 0) return []
            const log = yield* sql<AttemptRecord & { readonly deliveryId: string }>`
              select delivery_id, attempt, ${ts("at")} as at, status, latency_ms, error, response
              from webhook_attempts where delivery_id in ${sql.in(rows.map((r) => r.id))} order by id`
            return rows.map((r) => ({
              ...r,
              log: log.filter((a) => a.deliveryId === r.id).map(({ deliveryId: _, ...a }) => a)
            }))
          }).pipe(Effect.orDie),
        redeliver: (applicationId, eventId, environment) =>
          !Formats.isUuid(eventId) ? Effect.succeed(Option.none()) : Effect.gen(function*() {
            const at = yield* now
            const events = yield* sql<{ readonly environment: Environment }>`
              select environment from webhook_events where id = ${eventId} and application_id = ${applicationId}`
            if (events.length === 0) return Option.none()
            if (events[0]!.environment !== environment) {
              return Option.some({ environment: events[0]!.environment, deliveries: 0 })
            }
            const rows = yield* sql`insert into webhook_deliveries
                (id, event_id, endpoint_id, state, next_attempt_at, created_at, updated_at)
              select gen_random_uuid(), e.id, p.id, 'PENDING', ${at}::timestamp, ${at}::timestamp, ${at}::timestamp
              from webhook_events e join webhook_endpoints p on p.application_id = e.application_id
                and p.environment = e.environment and p.deleted_at is null and p.disabled_at is null
                and (cardinality(p.event_types) = 0 or e.type = any(p.event_types))
              where e.id = ${eventId}
              on conflict (event_id, endpoint_id) do update set state = 'PENDING', attempts = 0,
                next_attempt_at = excluded.next_attempt_at, lease_owner = null, lease_until = null,
                updated_at = excluded.updated_at
              returning id`
            return Option.some({ environment: events[0]!.environment, deliveries: rows.length })
          }).pipe(Effect.orDie),
        claim: (owner, leaseMillis, limit) =>
          Effect.gen(function*() {
            const at = yield* nowMillis
            const nowTs = Formats.timestampFromMillis(at)
            return yield* sql<ClaimedDelivery>`update webhook_deliveries d set lease_owner = ${owner},
                lease_until = ${Formats.timestampFromMillis(at + leaseMillis)}::timestamp
              from webhook_events e, webhook_endpoints p
              where d.id in (
                  select id from webhook_deliveries
                  where state = 'PENDING' and next_attempt_at <= ${nowTs}::timestamp
                    and (lease_until is null or lease_until < ${nowTs}::timestamp)
                  order by next_attempt_at
                  limit ${limit}
                  for update skip locked)
                and e.id = d.event_id and p.id = d.endpoint_id
              returning d.id, d.event_id, d.endpoint_id, d.attempts, e.payload, p.url, p.secret, p.previous_secret,
                to_char(p.previous_secret_until, ${sql.literal(TS)}) as previous_secret_until`
          }).pipe(Effect.orDie),
        record: (owner, outcomes) =>
          outcomes.length === 0 ? Effect.void : Effect.gen(function*() {
            const rows = outcomes.map((o) => ({
              id: o.id,
              endpoint_id: o.endpointId,
              attempt: o.attempt,
              at: o.at,
              status: o.status,
              latency_ms: o.latencyMs,
              error: clean(o.error),
              response: clean(o.response),
              state: o.state,
              next_at: o.nextAttemptAt
            }))
            yield* sql`with o as (
                select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as o(id uuid, endpoint_id uuid,
                  attempt integer, at timestamp, status integer, latency_ms integer, error text, response text,
                  state text, next_at timestamp)),
              a as (insert into webhook_attempts (delivery_id, attempt, at, status, latency_ms, error, response)
                select id, attempt, at, status, latency_ms, error, response from o)
              update webhook_deliveries d set state = o.state, attempts = o.attempt, next_attempt_at = o.next_at,
                last_status = o.status, last_error = o.error, updated_at = o.at, lease_owner = null, lease_until = null
              from o where d.id = o.id and d.lease_owner = ${owner}`
            const gone = [...new Set(outcomes.filter((o) => o.gone).map((o) => o.endpointId))]
            if (gone.length > 0) {
              const at = yield* now
              yield* sql.withTransaction(Effect.gen(function*() {
                yield* sql`update webhook_endpoints set disabled_at = ${at}::timestamp, updated_at = ${at}::timestamp,
                    disabled_reason = 'The endpoint answered 410 Gone.'
                  where id in ${sql.in(gone)} and disabled_at is null`
                yield* sql`update webhook_deliveries set state = 'DISCARDED', updated_at = ${at}::timestamp,
                    lease_owner = null, lease_until = null
                  where endpoint_id in ${sql.in(gone)} and state = 'PENDING'`
              }))
            }
          }).pipe(Effect.orDie),
        release: (owner) =>
          sql`update webhook_deliveries set lease_owner = null, lease_until = null
            where lease_owner = ${owner} and state = 'PENDING'`.pipe(Effect.asVoid, Effect.orDie)
      })
    })
  )
}
