/**
 * Idempotency-Key, enforced by the database (DECISIONS section 2). Keys are scoped to application,
 * environment and resource type and kept for the life of the resource. A claim takes a
 * transaction-scoped advisory lock on the key, so concurrent requests with one key (in any number
 * of processes) queue; the first creates the resource in the same transaction as the key, the others
 * find the key and replay, and a different request with the key is refused.
 */
import { PgClient } from "@effect/sql-pg"
import type { Formats } from "@osiris/core"
import { Context, Data, Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import type { Environment } from "../ApiKeys/Repo.js"

/** The same key was used with a different request (served as 422 `idempotency_key_reused`). */
export class IdempotencyKeyReused extends Data.TaggedError("IdempotencyKeyReused")<{ readonly key: string }> {}

/** JSON with object keys sorted at every level, so key order and whitespace do not matter. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`
  }
  return JSON.stringify(value)
}

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex")

/** The fingerprint of a request: method, path, query (parameters sorted) and the SHA-256 of the canonical body. */
export const fingerprint = (
  method: string,
  path: string,
  query: ReadonlyArray<readonly [string, string]>,
  body: unknown
): string => {
  const q = [...query].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")
  return sha256(`${method.toUpperCase()}\n${path}\n${q}\n${sha256(canonicalJson(body))}`)
}

/** A 64-bit advisory-lock key for a scoped idempotency key (the first 8 bytes of its SHA-256). */
const lockKey = (k: { applicationId: string; environment: string; resource: string; key: string }): string =>
  BigInt.asIntN(
    64,
    BigInt(`0x${sha256(JSON.stringify([k.applicationId, k.environment, k.resource, k.key])).slice(0, 16)}`)
  )
    .toString()

/** What a claim found. */
export type Claim =
  | { readonly _tag: "Created"; readonly resourceId: string }
  | { readonly _tag: "Replay"; readonly resourceId: string }

/** The idempotency store. */
export class IdempotencyRepo extends Context.Tag("@osiris/http/IdempotencyRepo")<IdempotencyRepo, {
  /**
   * Claims `key` for a request: creates the resource with `create` (in the same transaction) when the
   * key is new, replays the resource when the key was used with the same fingerprint, and fails
   * with IdempotencyKeyReused otherwise.
   */
  readonly claim: <E>(input: {
    readonly applicationId: string
    readonly environment: Environment
    readonly resource: string
    readonly key: string
    readonly fingerprint: string
    readonly resourceId: string
    readonly at: Formats.Timestamp
    readonly create: Effect.Effect<void, E>
  }) => Effect.Effect<Claim, E | IdempotencyKeyReused>
}>() {
  /** The store on the host's database. */
  static readonly layer = Layer.effect(
    IdempotencyRepo,
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      return IdempotencyRepo.of({
        claim: (input) =>
          sql.withTransaction(Effect.gen(function*() {
            yield* sql`select pg_advisory_xact_lock(${lockKey(input)}::bigint)`
            const found = yield* sql<{ fingerprint: string; resourceId: string }>`
              select fingerprint, resource_id from idempotency_keys
              where application_id = ${input.applicationId} and environment = ${input.environment}
                and resource = ${input.resource} and key = ${input.key}`
            const row = found[0]
            if (row !== undefined) {
              if (row.fingerprint !== input.fingerprint) return yield* new IdempotencyKeyReused({ key: input.key })
              return { _tag: "Replay", resourceId: row.resourceId } as const
            }
            yield* input.create
            yield* sql`insert into idempotency_keys
              (application_id, environment, resource, key, fingerprint, resource_id, created_at)
              values (${input.applicationId}, ${input.environment}, ${input.resource}, ${input.key},
                ${input.fingerprint}, ${input.resourceId}, ${input.at}::timestamp)`
            return { _tag: "Created", resourceId: input.resourceId } as const
          })).pipe(Effect.catchTag("SqlError", (e) => Effect.die(e)))
      })
    })
  )
}
