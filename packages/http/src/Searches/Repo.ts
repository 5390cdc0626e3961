/**
 * Searches as durable work items. A search is stored PENDING with its request; workers in any
 * number of host processes claim due searches with `FOR UPDATE SKIP LOCKED` under a lease that
 * expires (the database's clock decides, so processes agree); only the lease holder can finish a
 * search, so a process that lost its lease (it stalled or died) cannot overwrite the one that took
 * over. States follow `SearchState` (PENDING -> EXECUTING -> COMPLETED | FAILED, or CANCELLED).
 */
import { PgClient } from "@effect/sql-pg"
import { Formats, type Search } from "@osiris/core"
import { Store } from "@osiris/webhooks"
import { Context, Effect, Layer, Option } from "effect"
import type { Environment } from "../ApiKeys/Repo.js"
import { jsonColumn } from "../Storage/Database.js"

/** A stored search. */
export interface StoredSearch {
  readonly id: string
  readonly applicationId: string
  readonly environment: Environment
  readonly state: Search.SearchState
  readonly request: unknown
  readonly body: Search.Search
  readonly attempts: number
  /** The business a business token named (Form 2), if the search came with one. */
  readonly businessId: string | null
}

/** A search handed to a worker, with the lease it holds. */
export interface ClaimedSearch extends StoredSearch {
  readonly leaseOwner: string
}

interface Row {
  readonly id: string
  readonly applicationId: string
  readonly environment: Environment
  readonly state: Search.SearchState
  readonly request: unknown
  readonly body: Search.Search
  readonly attempts: number
  readonly businessId: string | null
  readonly leaseOwner?: string | null
}

const toStored = (r: Row): StoredSearch => ({
  id: r.id,
  applicationId: r.applicationId,
  environment: r.environment,
  state: r.state,
  request: jsonColumn(r.request),
  body: jsonColumn(r.body) as Search.Search,
  attempts: r.attempts,
  businessId: r.businessId
})

/** The searches store. */
export class SearchesRepo extends Context.Tag("@osiris/http/SearchesRepo")<SearchesRepo, {
  /** Stores a new PENDING search (its wire body as created). */
  readonly create: (input: {
    readonly applicationId: string
    readonly environment: Environment
    readonly request: unknown
    readonly body: Search.Search
    /** The business a business token named. */
    readonly businessId?: string
  }) => Effect.Effect<void>
  /** Claims up to `limit` due searches (PENDING, or EXECUTING with an expired lease) for `owner`. */
  readonly claim: (owner: string, leaseMillis: number, limit: number) => Effect.Effect<ReadonlyArray<ClaimedSearch>>
  /** Claims one search by id for `owner` (the synchronous path runs its own search), if it is due. */
  readonly claimById: (id: string, owner: string, leaseMillis: number) => Effect.Effect<Option.Option<ClaimedSearch>>
  /** Finishes a claimed search if `owner` still holds its lease; false when it does not. */
  readonly finish: (
    id: string,
    owner: string,
    state: "COMPLETED" | "FAILED",
    body: Search.Search
  ) => Effect.Effect<boolean>
  /** Hands a claimed search back (PENDING, no lease) when `owner` stops before finishing it. */
  readonly release: (id: string, owner: string) => Effect.Effect<void>
  /** Hands back every search `owner` still holds (a stopping process, after its fibers stopped). */
  readonly releaseOwner: (owner: string) => Effect.Effect<void>
  /** Cancels a PENDING or EXECUTING search of the application; the search after, if it exists. */
  readonly cancel: (
    applicationId: string,
    id: string,
    body: (current: Search.Search) => Search.Search
  ) => Effect.Effect<Option.Option<{ readonly cancelled: boolean; readonly search: StoredSearch }>>
  /** A page of the application's searches in one environment, newest first, after the cursor id. */
  readonly list: (input: {
    readonly applicationId: string
    readonly environment: Environment
    readonly limit: number
    readonly before?: string | undefined
    readonly state?: Search.SearchState | undefined
    readonly referenceId?: string | undefined
  }) => Effect.Effect<ReadonlyArray<StoredSearch>>
  /** A search of the application, if any. */
  readonly get: (applicationId: string, id: string) => Effect.Effect<Option.Option<StoredSearch>>
}>() {
  /** The store on the host's database. */
  static readonly layer = Layer.effect(
    SearchesRepo,
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const webhooks = yield* Store.WebhookStore
      const columns = sql`id, application_id, environment, state, request, body, attempts, business_id`
      // What reads answer with (the request is only needed to run a search, and costs a JSON parse).
      const readColumns = sql`id, application_id, environment, state, null as request, body, attempts, business_id`
      return SearchesRepo.of({
        create: (input) =>
          sql.withTransaction(Effect.gen(function*() {
            yield* sql`insert into searches (id, application_id, environment, state, reference_id, request, body, created_at,
                updated_at, business_id)
              values (${input.body.id}, ${input.applicationId}, ${input.environment}, 'PENDING', ${input.body.reference_id},
                ${sql.json(input.request)}, ${sql.json(input.body)}, ${input.body.created_at}::timestamp,
                ${input.body.updated_at}::timestamp, ${input.businessId ?? null})`
            // One orderable per option, PENDING, run after the search (Orderables/Worker.ts).
            for (const o of input.body.orderables) {
              yield* sql`insert into orderables (id, search_id, application_id, environment, option, type, state,
                  reference_id, created_at, updated_at)
                values (${o.id}, ${input.body.id}, ${input.applicationId}, ${input.environment}, ${o.option}, ${o.type},
                  'PENDING', ${input.body.reference_id}, ${input.body.created_at}::timestamp,
                  ${input.body.created_at}::timestamp)`
            }
            yield* webhooks.publish({
              applicationId: input.applicationId,
              environment: input.environment,
              type: "BusinessSearch.submitted",
              data: input.body
            })
          })).pipe(Effect.orDie),
        claim: (owner, leaseMillis, limit) =>
          Effect.map(
            sql<Row>`
              update searches set state = 'EXECUTING', lease_owner = ${owner},
                lease_until = (now() at time zone 'utc') + make_interval(secs => ${leaseMillis / 1000}),
                attempts = attempts + 1
              where id in (
                select id from searches
                where state = 'PENDING' or (state = 'EXECUTING' and lease_until < (now() at time zone 'utc'))
                order by id
                limit ${limit}
                for update skip locked)
              returning ${columns}, lease_owner`,
            (rows) => rows.map((r) => ({ ...toStored(r), leaseOwner: owner }))
          ).pipe(Effect.orDie),
        claimById: (id, owner, leaseMillis) =>
          Effect.map(
            sql<Row>`
              update searches set state = 'EXECUTING', lease_owner = ${owner},
                lease_until = (now() at time zone 'utc') + make_interval(secs => ${leaseMillis / 1000}),
                attempts = attempts + 1
              where id = (
                select id from searches
                where id = ${id} and (state = 'PENDING' or (state = 'EXECUTING' and lease_until < (now() at time zone 'utc')))
                for update skip locked)
              returning ${columns}, lease_owner`,
            (rows) => Option.fromNullable(rows[0]).pipe(Option.map((r) => ({ ...toStored(r), leaseOwner: owner })))
          ).pipe(Effect.orDie),
        finish: (id, owner, state, body) =>
          sql.withTransaction(Effect.gen(function*() {
            // The notification wakes requests waiting for it in any process (delivered on commit; see
            // Signals.ts); it goes with the update, in one round trip.
            const rows = yield* sql<{ applicationId: string; environment: Environment }>`
              with finished as (
                update searches set state = ${state}, body = ${
              sql.json(body)
            }, updated_at = ${body.updated_at}::timestamp,
                  lease_owner = null, lease_until = null
                where id = ${id} and state = 'EXECUTING' and lease_owner = ${owner}
                  and lease_until >= (now() at time zone 'utc')
                returning id, application_id, environment)
              select application_id, environment, pg_notify('osiris_search_done', id::text) from finished`
            const row = rows[0]
            if (row === undefined) return false
            // Production work is billable: one usage record per search (DECISIONS section 3).
            if (row.environment === "PRODUCTION") {
              yield* sql`insert into usage_records (application_id, environment, kind, resource_id, at)
                values (${row.applicationId}, ${row.environment}, 'search', ${id}, ${body.updated_at}::timestamp)
                on conflict (kind, resource_id) do nothing`
            }
            yield* webhooks.publish({
              applicationId: row.applicationId,
              environment: row.environment,
              type: state === "COMPLETED" ? "BusinessSearch.completed" : "BusinessSearch.failed",
              data: body
            })
            return true
          })).pipe(Effect.orDie),
        release: (id, owner) =>
          sql`update searches set state = 'PENDING', lease_owner = null, lease_until = null
            where id = ${id} and state = 'EXECUTING' and lease_owner = ${owner}`.pipe(Effect.asVoid, Effect.orDie),
        releaseOwner: (owner) =>
          sql`update searches set state = 'PENDING', lease_owner = null, lease_until = null
            where state = 'EXECUTING' and lease_owner = ${owner}`.pipe(Effect.asVoid, Effect.orDie),
        cancel: (applicationId, id, body) =>
          sql.withTransaction(Effect.gen(function*() {
            const rows = yield* sql<Row>`select ${columns} from searches
              where id = ${id} and application_id = ${applicationId} for update`
            const row = rows[0]
            if (row === undefined) return Option.none()
            const current = toStored(row)
            if (current.state !== "PENDING" && current.state !== "EXECUTING") {
              return Option.some({ cancelled: false, search: current })
            }
            const next = body(current.body)
            yield* sql`update searches set state = 'CANCELLED', body = ${sql.json(next)},
                updated_at = ${next.updated_at}::timestamp, lease_owner = null, lease_until = null
              where id = ${id}`
            yield* sql`update orderables set state = 'CANCELLED', updated_at = ${next.updated_at}::timestamp,
                lease_owner = null, lease_until = null
              where search_id = ${id} and state in ('PENDING', 'EXECUTING')`
            yield* webhooks.publish({
              applicationId,
              environment: current.environment,
              type: "BusinessSearch.cancelled",
              data: next
            })
            return Option.some({ cancelled: true, search: { ...current, state: "CANCELLED" as const, body: next } })
          })).pipe(Effect.orDie),
        list: (input) =>
          Effect.map(
            sql<Row>`select ${readColumns} from searches
              where application_id = ${input.applicationId} and environment = ${input.environment}
                ${input.before === undefined ? sql`` : sql`and id < ${input.before}`}
                ${input.state === undefined ? sql`` : sql`and state = ${input.state}`}
                ${input.referenceId === undefined ? sql`` : sql`and reference_id = ${input.referenceId}`}
              order by id desc limit ${input.limit}`,
            (rows) => rows.map(toStored)
          ).pipe(Effect.orDie),
        get: (applicationId, id) =>
          // Ids come from URLs: anything but a UUID is simply not found (never a database error).
          !Formats.isUuid(id) ? Effect.succeed(Option.none()) : Effect.map(
            sql<Row>`select ${readColumns} from searches where id = ${id} and application_id = ${applicationId}`,
            (rows) => Option.fromNullable(rows[0]).pipe(Option.map(toStored))
          ).pipe(Effect.orDie)
      })
    })
  )
}
