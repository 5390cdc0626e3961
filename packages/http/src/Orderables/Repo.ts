/**
 * Orderables as durable work items (DECISIONS section 4): created PENDING with their search, claimed
 * once the search is finished (`FOR UPDATE SKIP LOCKED`, under a lease that expires, like searches),
 * finished only by the lease holder. Finishing writes, in one transaction, the record, its
 * `<RecordType>.completed` event, a usage record for production work, and `BusinessSearch.updated`
 * once every orderable of the search is done.
 */
import { PgClient } from "@effect/sql-pg"
import { Formats, type Search } from "@osiris/core"
import { type Events, Store } from "@osiris/webhooks"
import { Context, Effect, Layer, Option } from "effect"
import type { Environment } from "../ApiKeys/Repo.js"
import { jsonColumn } from "../Storage/Database.js"

/** The path segment of each option's records (`GET /<kind>/{id}`). */
export const kinds = {
  "Order.WebsiteAnalysis": "website_analysis_requests",
  "Order.NaicsPrediction": "naics_prediction_requests",
  "Order.Pep": "pep_screening_requests",
  "Order.Enhanced": "enhanced_requests"
} as const satisfies Record<Search.Option, string>

/** An orderable as stored. */
export interface StoredOrderable {
  readonly applicationId: string
  readonly environment: Environment
  readonly record: Events.OrderRecord
}

/** An orderable handed to a worker, with its search. */
export interface ClaimedOrderable extends StoredOrderable {
  readonly leaseOwner: string
  readonly search: Search.Search
  readonly searchRequest: unknown
}

const TS = Formats.PG_TIMESTAMP

interface Row {
  readonly id: string
  readonly applicationId: string
  readonly environment: Environment
  readonly option: Search.Option
  readonly type: Events.OrderRecord["type"]
  readonly state: Search.SearchState
  readonly searchId: string
  readonly businessId: string | null
  readonly referenceId: string | null
  readonly createdAt: string
  readonly updatedAt: string
  readonly result: unknown
  readonly error: string | null
  readonly search?: unknown
  readonly request?: unknown
}

const toStored = (r: Row): StoredOrderable => ({
  applicationId: r.applicationId,
  environment: r.environment,
  record: {
    id: r.id as Events.OrderRecord["id"],
    type: r.type,
    option: r.option,
    state: r.state,
    search_id: r.searchId as Events.OrderRecord["search_id"],
    business_id: r.businessId as Events.OrderRecord["business_id"],
    reference_id: r.referenceId,
    created_at: r.createdAt as Events.OrderRecord["created_at"],
    updated_at: r.updatedAt as Events.OrderRecord["updated_at"],
    result: (jsonColumn(r.result) ?? null) as Events.OrderRecord["result"],
    error: r.error
  }
})

/** The orderables store. */
export class OrderablesRepo extends Context.Tag("@osiris/http/OrderablesRepo")<OrderablesRepo, {
  /** Claims up to `limit` due orderables whose search has finished. */
  readonly claim: (owner: string, leaseMillis: number, limit: number) => Effect.Effect<ReadonlyArray<ClaimedOrderable>>
  /** Finishes a claimed orderable if `owner` still holds its lease; false when it does not. */
  readonly finish: (
    claimed: ClaimedOrderable,
    outcome: {
      readonly state: "COMPLETED" | "FAILED" | "CANCELLED"
      readonly result: Record<string, unknown> | null
      readonly error: string | null
      readonly at: string
    }
  ) => Effect.Effect<boolean>
  /** Hands a claimed orderable back (PENDING, no lease) when `owner` stops before finishing it. */
  readonly release: (id: string, owner: string) => Effect.Effect<void>
  /** The orderables of a search of the application, in option order. */
  readonly bySearch: (applicationId: string, searchId: string) => Effect.Effect<ReadonlyArray<StoredOrderable>>
  /** An orderable of the application, of the given option. */
  readonly get: (
    applicationId: string,
    option: Search.Option,
    id: string
  ) => Effect.Effect<Option.Option<StoredOrderable>>
}>() {
  /** The store on the host's database. */
  static readonly layer = Layer.effect(
    OrderablesRepo,
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const webhooks = yield* Store.WebhookStore
      const columns = sql.literal(`o.id, o.application_id, o.environment, o.option, o.type, o.state, o.search_id,
        o.business_id, o.reference_id, to_char(o.created_at, ${TS}) as created_at,
        to_char(o.updated_at, ${TS}) as updated_at, o.result, o.error`)
      return OrderablesRepo.of({
        claim: (owner, leaseMillis, limit) =>
          Effect.map(
            sql<Row>`
              update orderables o set state = 'EXECUTING', lease_owner = ${owner},
                lease_until = (now() at time zone 'utc') + make_interval(secs => ${leaseMillis / 1000}),
                attempts = o.attempts + 1
              from searches s
              where s.id = o.search_id and o.id in (
                select x.id from orderables x join searches y on y.id = x.search_id
                where y.state in ('COMPLETED', 'FAILED', 'CANCELLED')
                  and (x.state = 'PENDING' or (x.state = 'EXECUTING' and x.lease_until < (now() at time zone 'utc')))
                order by x.created_at
                limit ${limit}
                for update of x skip locked)
              returning ${columns}, s.body as search, s.request`,
            (rows) =>
              rows.map((r) => ({
                ...toStored(r),
                leaseOwner: owner,
                search: jsonColumn(r.search) as Search.Search,
                searchRequest: jsonColumn(r.request)
              }))
          ).pipe(Effect.orDie),
        finish: (claimed, outcome) =>
          sql.withTransaction(Effect.gen(function*() {
            const r = claimed.record
            const businessId = claimed.search.business?.id ?? null
            const rows = yield* sql<Row>`
              update orderables o set state = ${outcome.state}, result = ${
              outcome.result === null ? null : sql.json(outcome.result)
            },
                error = ${outcome.error}, business_id = ${businessId}, updated_at = ${outcome.at}::timestamp,
                lease_owner = null, lease_until = null
              where o.id = ${r.id} and o.state = 'EXECUTING' and o.lease_owner = ${claimed.leaseOwner}
                and o.lease_until >= (now() at time zone 'utc')
              returning ${columns}`
            const row = rows[0]
            if (row === undefined) return false
            const record = toStored(row).record
            if (outcome.state !== "CANCELLED") {
              yield* webhooks.publish({
                applicationId: claimed.applicationId,
                environment: claimed.environment,
                type: `${record.type}.completed`,
                data: record
              })
            }
            if (claimed.environment === "PRODUCTION" && outcome.state === "COMPLETED") {
              yield* sql`insert into usage_records (application_id, environment, kind, resource_id, at)
                values (${claimed.applicationId}, ${claimed.environment}, ${record.option}, ${record.id},
                  ${outcome.at}::timestamp)
                on conflict (kind, resource_id) do nothing`
            }
            // The last extra of the search done: the search is updated (its extras are all in).
            const open = yield* sql<{ n: number }>`select count(*)::int as n from orderables
              where search_id = ${record.search_id} and state in ('PENDING', 'EXECUTING')`
            if (open[0]!.n === 0 && claimed.search.state !== "CANCELLED") {
              yield* webhooks.publish({
                applicationId: claimed.applicationId,
                environment: claimed.environment,
                type: "BusinessSearch.updated",
                data: claimed.search
              })
            }
            return true
          })).pipe(Effect.orDie),
        release: (id, owner) =>
          sql`update orderables set state = 'PENDING', lease_owner = null, lease_until = null
            where id = ${id} and state = 'EXECUTING' and lease_owner = ${owner}`.pipe(Effect.asVoid, Effect.orDie),
        bySearch: (applicationId, searchId) =>
          !Formats.isUuid(searchId) ? Effect.succeed([]) : Effect.map(
            sql<Row>`select ${columns} from orderables o
              where o.search_id = ${searchId} and o.application_id = ${applicationId} order by o.id`,
            (rows) => rows.map(toStored)
          ).pipe(Effect.orDie),
        get: (applicationId, option, id) =>
          !Formats.isUuid(id) ? Effect.succeed(Option.none()) : Effect.map(
            sql<Row>`select ${columns} from orderables o
              where o.id = ${id} and o.application_id = ${applicationId} and o.option = ${option}`,
            (rows) => Option.fromNullable(rows[0]).pipe(Option.map(toStored))
          ).pipe(Effect.orDie)
      })
    })
  )
}
