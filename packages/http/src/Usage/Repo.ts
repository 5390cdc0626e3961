/**
 * The usage ledger (DECISIONS section 3): one record per billable production event, written in the
 * transaction that finishes the work (a search, an orderable); sandbox work records none.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer } from "effect"
import type { Environment } from "../ApiKeys/Repo.js"

/** Billable events of one kind on one day. */
export interface DailyUsage {
  readonly date: string
  readonly kind: string
  readonly count: number
}

/** The usage ledger. */
export class UsageRepo extends Context.Tag("@osiris/http/UsageRepo")<UsageRepo, {
  /** Counts per day (UTC) and kind between two dates, inclusive. */
  readonly daily: (input: {
    readonly applicationId: string
    readonly environment: Environment
    readonly from: string
    readonly to: string
  }) => Effect.Effect<ReadonlyArray<DailyUsage>>
}>() {
  /** The ledger on the host's database. */
  static readonly layer = Layer.effect(
    UsageRepo,
    Effect.map(PgClient.PgClient, (sql) =>
      UsageRepo.of({
        daily: (input) =>
          sql<DailyUsage>`select to_char(date_trunc('day', at), 'YYYY-MM-DD') as date, kind, count(*)::int as count
            from usage_records
            where application_id = ${input.applicationId} and environment = ${input.environment}
              and at >= ${input.from}::date and at < ${input.to}::date + 1
            group by 1, 2 order by 1, 2`.pipe(Effect.orDie)
      }))
  )
}
