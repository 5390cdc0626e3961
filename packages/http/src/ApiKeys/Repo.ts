/**
 * Applications and API keys (DECISIONS section 3). A key belongs to one application and one
 * environment, carries scopes and a default request mode, and is shown in full once, at creation:
 * only its SHA-256 is stored (keys are 256 random bits, so a fast hash is the right one), and the
 * stored hash is compared in constant time. Keys look like `osk_test_<random>` / `osk_live_<random>`.
 */
import { PgClient } from "@effect/sql-pg"
import { Formats, Ids } from "@osiris/core"
import { Store } from "@osiris/webhooks"
import { Clock, Config, Context, Data, Effect, Layer, Option, Redacted } from "effect"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"

/** SANDBOX or PRODUCTION. */
export type Environment = "SANDBOX" | "PRODUCTION"

/** How a create request without a preference runs (DECISIONS section 1). */
export type RequestMode = "sync" | "async"

/** An API key as stored (never the key). */
export interface ApiKey {
  readonly id: string
  readonly applicationId: string
  readonly applicationName: string
  readonly environment: Environment
  readonly name: string
  readonly prefix: string
  readonly scopes: ReadonlyArray<string>
  readonly defaultRequestMode: RequestMode
  readonly createdAt: Formats.Timestamp
  readonly revokedAt: Formats.Timestamp | null
}

/** An application. */
export interface Application {
  readonly id: string
  readonly name: string
  readonly createdAt: Formats.Timestamp
}

/** A new key: the record and, this once, the key itself. */
export interface CreatedKey {
  readonly record: ApiKey
  readonly key: Redacted.Redacted<string>
}

/** Why a presented key was not accepted (all are 401 on the wire). */
export class KeyRejected extends Data.TaggedError("KeyRejected")<{
  readonly reason: "missing" | "malformed" | "unknown" | "revoked"
}> {}

const KEY = /^osk_(test|live)_[A-Za-z0-9_-]{43}$/

const envOfPrefix = { test: "SANDBOX", live: "PRODUCTION" } as const

/** How many verified keys a process remembers (oldest out). */
const KEY_CACHE_SIZE = 10_000

/** The SHA-256 of a key. */
export const hashKey = (key: string): Buffer => createHash("sha256").update(key, "utf8").digest()

/**
 * Whether two key digests are equal, in a time that does not depend on where they differ
 * (`crypto.timingSafeEqual`); digests of another length are simply unequal.
 */
export const sameDigest = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && timingSafeEqual(a, b)

/** A new key string for an environment (256 bits from the operating system's CSPRNG). */
export const newKey = (environment: Environment): string =>
  `osk_${environment === "SANDBOX" ? "test" : "live"}_${randomBytes(32).toString("base64url")}`

/** Scopes a key may carry. */
export const SCOPES = [
  "searches:write",
  "searches:read",
  "businesses:read",
  "webhooks:manage",
  "keys:manage",
  "usage:read"
] as const

interface Row {
  readonly id: string
  readonly applicationId: string
  readonly applicationName: string
  readonly environment: Environment
  readonly name: string
  readonly prefix: string
  readonly scopes: ReadonlyArray<string>
  readonly defaultRequestMode: RequestMode
  readonly createdAt: string
  readonly revokedAt: string | null
  readonly keyHash?: Uint8Array
}

const toKey = (r: Row): ApiKey => ({
  id: r.id,
  applicationId: r.applicationId,
  applicationName: r.applicationName,
  environment: r.environment,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes,
  defaultRequestMode: r.defaultRequestMode,
  createdAt: r.createdAt as Formats.Timestamp,
  revokedAt: r.revokedAt as Formats.Timestamp | null
})

/** A key as webhook events describe it (never the key). */
export const eventData = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  application: k.applicationName,
  environment: k.environment,
  scopes: k.scopes,
  prefix: k.prefix,
  created_at: k.createdAt,
  revoked_at: k.revokedAt
})

const TS = Formats.PG_TIMESTAMP

/** The applications and keys store. */
export class ApiKeysRepo extends Context.Tag("@osiris/http/ApiKeysRepo")<ApiKeysRepo, {
  readonly ensureApplication: (name: string) => Effect.Effect<Application>
  readonly create: (input: {
    readonly applicationId: string
    readonly environment: Environment
    readonly name: string
    readonly scopes: ReadonlyArray<string>
    readonly defaultRequestMode?: RequestMode
  }) => Effect.Effect<CreatedKey>
  readonly authenticate: (presented: string | undefined) => Effect.Effect<ApiKey, KeyRejected>
  readonly list: (applicationId: string, environment: Environment) => Effect.Effect<ReadonlyArray<ApiKey>>
  readonly revoke: (applicationId: string, id: string) => Effect.Effect<Option.Option<ApiKey>>
}>() {
  /** The store on the host's database. */
  static readonly layer = Layer.effect(
    ApiKeysRepo,
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const ids = yield* Ids.Ids
      const webhooks = yield* Store.WebhookStore
      const now = Effect.map(Clock.currentTimeMillis, Formats.timestampFromMillis)
      // Keys verified recently (positive answers only, so unknown keys always reach the database),
      // on the real clock: every request would otherwise cost a database round trip for its key.
      const cacheMillis = 1000 * (yield* Config.number("OSIRIS_KEY_CACHE_SECONDS").pipe(
        Config.withDefault(5),
        Effect.orDie
      ))
      const verified = new Map<string, { readonly key: ApiKey; readonly until: number }>()
      const select = (where: ReturnType<typeof sql.and> | ReturnType<typeof sql.literal>) =>
        sql<Row>`
          select k.id, k.application_id, a.name as application_name, k.environment, k.name, k.prefix, k.scopes,
            k.default_request_mode, to_char(k.created_at, ${sql.literal(TS)}) as created_at,
            to_char(k.revoked_at, ${sql.literal(TS)}) as revoked_at, k.key_hash
          from api_keys k join applications a on a.id = k.application_id
          where ${where}`
      return ApiKeysRepo.of({
        ensureApplication: (name) =>
          Effect.gen(function*() {
            const id = yield* ids.next
            const at = yield* now
            yield* sql`insert into applications (id, name, created_at) values (${id}, ${name}, ${at}::timestamp)
              on conflict (name) do nothing`
            const rows = yield* sql<{ id: string; name: string; createdAt: string }>`
              select id, name, to_char(created_at, ${
              sql.literal(TS)
            }) as created_at from applications where name = ${name}`
            return { id: rows[0]!.id, name: rows[0]!.name, createdAt: rows[0]!.createdAt as Formats.Timestamp }
          }).pipe(Effect.orDie),
        create: (input) =>
          sql.withTransaction(Effect.gen(function*() {
            const id = yield* ids.next
            const at = yield* now
            const key = newKey(input.environment)
            // Scopes are plain words (SCOPES), so a space-joined string splits back exactly.
            yield* sql`insert into api_keys
              (id, application_id, environment, name, prefix, key_hash, scopes, default_request_mode, created_at)
              values (${id}, ${input.applicationId}, ${input.environment}, ${input.name}, ${key.slice(0, 13)},
                ${hashKey(key)}, string_to_array(${input.scopes.join(" ")}, ' ')::text[],
                ${input.defaultRequestMode ?? "sync"}, ${at}::timestamp)`
            const record = toKey((yield* select(sql`k.id = ${id}`))[0]!)
            // The event is stored with the key, in its transaction (the outbox).
            yield* webhooks.publish({
              applicationId: record.applicationId,
              environment: record.environment,
              type: "APIKey.created",
              data: eventData(record)
            })
            return { record, key: Redacted.make(key) }
          })).pipe(Effect.orDie),
        authenticate: (presented) =>
          Effect.gen(function*() {
            if (presented === undefined || presented === "") return yield* new KeyRejected({ reason: "missing" })
            const m = KEY.exec(presented)
            if (m === null) return yield* new KeyRejected({ reason: "malformed" })
            const hash = hashKey(presented)
            const cacheKey = hash.toString("base64")
            const hit = verified.get(cacheKey)
            if (hit !== undefined && hit.until > performance.now()) return hit.key
            const rows = yield* select(sql`k.key_hash = ${hash}`).pipe(Effect.orDie)
            const row = rows[0]
            // The lookup is by hash; the comparison that decides is constant time.
            if (row === undefined || row.keyHash === undefined || !sameDigest(row.keyHash, hash)) {
              return yield* new KeyRejected({ reason: "unknown" })
            }
            if (row.environment !== envOfPrefix[m[1] as "test" | "live"]) {
              return yield* new KeyRejected({ reason: "unknown" })
            }
            if (row.revokedAt !== null) return yield* new KeyRejected({ reason: "revoked" })
            const key = toKey(row)
            if (cacheMillis > 0) {
              if (verified.size >= KEY_CACHE_SIZE) verified.delete(verified.keys().next().value!)
              verified.set(cacheKey, { key, until: performance.now() + cacheMillis })
            }
            return key
          }),
        list: (applicationId, environment) =>
          Effect.map(
            select(sql`k.application_id = ${applicationId} and k.environment = ${environment} order by k.id`),
            (rows) => rows.map(toKey)
          ).pipe(Effect.orDie),
        revoke: (applicationId, id) =>
          sql.withTransaction(Effect.gen(function*() {
            const at = yield* now
            const updated = yield* sql`update api_keys set revoked_at = ${at}::timestamp
              where id = ${id} and application_id = ${applicationId} and revoked_at is null returning id`
            const rows = yield* select(sql`k.id = ${id} and k.application_id = ${applicationId}`)
            const found = Option.fromNullable(rows[0]).pipe(Option.map(toKey))
            // This process refuses the key at once; others within OSIRIS_KEY_CACHE_SECONDS.
            for (const [k, v] of verified) if (v.key.id === id) verified.delete(k)
            if (updated.length === 1 && Option.isSome(found)) {
              yield* webhooks.publish({
                applicationId,
                environment: found.value.environment,
                type: "APIKey.deleted",
                data: eventData(found.value)
              })
            }
            return found
          })).pipe(Effect.orDie)
      })
    })
  )
}
