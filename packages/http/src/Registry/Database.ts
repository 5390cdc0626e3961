/**
 * The production registry on the host's database (DECISIONS section 3; the operator imports it).
 * Retrieval is the engine's memory index, done by the database: the request's blocking keys
 * (`Registry.blockingKeys`) are looked up in `registry_keys`, the same keys vote with the same
 * rarity weights (`Registry.votingKeys`), the best 20 records are read and compared with the model
 * (`Registry.rankCandidates`), so grades are the memory index's. Nothing is held in memory but the
 * record count (refreshed every minute).
 */
import { PgClient } from "@effect/sql-pg"
import { Formats, Registry, type Tin } from "@osiris/core"
import { Clock, Effect, Either, Layer, Option, Stream } from "effect"
import { jsonColumn } from "../Storage/Database.js"

/** EIN digits of a record, for the TIN authority. */
const einOf = (r: Registry.RegistryBusiness) => {
  const d = (r.ein ?? "").replace(/\D/g, "")
  return d.length === 9 ? d : null
}

/** The registry over the database (requires `PgClient`). */
export const layer = Layer.effect(
  Registry.Registry,
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    let total = { n: 0, at: -Infinity }
    const count = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      if (now - total.at > 60_000) {
        const rows = yield* sql<{ n: number }>`select count(*)::int as n from registry_businesses`
        total = { n: rows[0]!.n, at: now }
      }
      return total.n
    })
    const records = (ids: ReadonlyArray<string>) =>
      ids.length === 0 ? Effect.succeed([]) : Effect.map(
        sql<{ id: string; record: unknown }>`select id, record from registry_businesses where id in ${sql.in(ids)}`,
        (rows) => rows.map((r) => jsonColumn(r.record) as Registry.RegistryBusiness)
      )
    return Registry.Registry.of({
      search: (query, options) =>
        Effect.gen(function*() {
          const keys = Registry.blockingKeys(query)
          if (keys.length === 0) return []
          const lengths = yield* sql<{ key: string; n: number }>`
            select key, count(*)::int as n from registry_keys where key in ${sql.in(keys)} group by key`
          const voting = Registry.votingKeys(lengths.map((l) => ({ key: l.key, length: l.n })), yield* count)
          if (voting.length === 0) return []
          const best = yield* sql<{ businessId: string }>`
            select r.business_id from registry_keys r
              join jsonb_to_recordset(${JSON.stringify(voting)}::jsonb) as q(key text, idf float8) on q.key = r.key
            group by r.business_id
            order by sum(q.idf) desc, r.business_id
            limit ${Registry.COMPARE_LIMIT}`
          const found = yield* records(best.map((b) => b.businessId))
          return Registry.rankCandidates(
            query,
            found.map((business) => ({ business, prepared: Registry.prepareRecord(business) })),
            options?.limit ?? 5
          )
        }).pipe(Effect.orDie),
      get: (id) =>
        !Formats.isUuid(id)
          ? Effect.succeed(undefined)
          : Effect.map(records([id]), (r) => r[0]).pipe(Effect.orDie),
      ownerOfEin: (ein) =>
        Effect.map(
          sql<{ name: string }>`select record->>'name' as name from registry_businesses where ein = ${ein} limit 1`,
          (rows): Tin.TinOwner | undefined => (rows[0] === undefined ? undefined : { name: rows[0].name })
        ).pipe(Effect.orDie)
    })
  })
)

/** What an import did. */
export interface ImportReport {
  readonly imported: number
  readonly rejected: ReadonlyArray<{ readonly line: number; readonly reason: string }>
}

/**
 * Imports contract Business records (JSON Lines), streaming, in transactions of `batch` records:
 * a record replaces the one with its `id` (idempotent), with its blocking keys. `progress` is
 * called after each batch with the records imported so far.
 */
export const importLines = <E, R>(
  lines: Stream.Stream<string, E, R>,
  options: {
    readonly batch?: number
    readonly progress?: (imported: number, rejected: number) => Effect.Effect<void>
  } = {}
) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    const rejected: Array<{ line: number; reason: string }> = []
    let imported = 0
    const write = (batch: ReadonlyArray<Registry.RegistryBusiness>) =>
      sql.withTransaction(Effect.gen(function*() {
        // The last of several records with one id in a batch wins, as it would across batches.
        const byId = new Map(batch.map((r) => [r.id, r]))
        const rows = [...byId.values()]
        yield* sql`insert into registry_businesses (id, record, ein, imported_at)
          select id, record, ein, now() at time zone 'utc'
          from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ id: r.id, record: r, ein: einOf(r) })))}::jsonb)
            as x(id uuid, record jsonb, ein text)
          on conflict (id) do update set record = excluded.record, ein = excluded.ein, imported_at = excluded.imported_at`
        yield* sql`delete from registry_keys where business_id in ${sql.in(rows.map((r) => r.id))}`
        const keys = rows.flatMap((r) =>
          Registry.blockingKeys(Registry.prepareRecord(r)).map((key) => ({ key, id: r.id }))
        )
        if (keys.length > 0) {
          yield* sql`insert into registry_keys (key, business_id)
            select key, id from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(key text, id uuid)
            on conflict do nothing`
        }
      }))
    yield* lines.pipe(
      Stream.zipWithIndex,
      Stream.filter(([line]) => line.trim().length > 0),
      Stream.filterMap(([line, index]) => {
        let parsed: unknown
        try {
          parsed = JSON.parse(line)
        } catch (e) {
          rejected.push({ line: Number(index) + 1, reason: `not JSON: ${(e as Error).message}` })
          return Option.none()
        }
        const decoded = Registry.decodeRecord(parsed)
        if (Either.isRight(decoded)) return Option.some(decoded.right)
        rejected.push({ line: Number(index) + 1, reason: decoded.left.replace(/\s+/g, " ") })
        return Option.none()
      }),
      Stream.grouped(options.batch ?? 500),
      Stream.runForEach((chunk) =>
        Effect.gen(function*() {
          const batch = [...chunk]
          yield* write(batch)
          imported += batch.length
          if (options.progress !== undefined) yield* options.progress(imported, rejected.length)
        })
      )
    )
    return { imported, rejected } satisfies ImportReport
  })
