/**
 * Business tokens (DECISIONS section 4): what autocomplete hands out and `POST /searches` Form 2
 * takes. A token names one business of the registry, is bound to the application and environment
 * it was issued to, and lives 15 minutes. It is self-contained and signed: `bt_` + base64url of
 * version, business id, application id, environment and expiry, followed by the first 16 bytes of
 * their HMAC-SHA256 under a host secret kept in the database (so every process accepts every
 * other's tokens). An unknown, altered or foreign token is `business_token_invalid`; a genuine one
 * past its time is `business_token_expired`.
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Either, Layer } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { Environment } from "./ApiKeys/Repo.js"

/** How long a token lives. */
export const LIFETIME_SECONDS = 15 * 60

const VERSION = 1
const PAYLOAD = 1 + 16 + 16 + 1 + 4
const MAC = 16
/** `bt_` and the base64url of payload and MAC (no padding). */
const TOKEN_LENGTH = 3 + Math.ceil(((PAYLOAD + MAC) * 4) / 3)

/** Why a token was refused (the 422 `type`). */
export type Refusal = "business_token_invalid" | "business_token_expired"

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex")
const uuidOf = (b: Buffer) => {
  const h = b.toString("hex")
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** Issues and checks tokens under one secret. */
export const make = (secret: Uint8Array) => {
  const mac = (payload: Buffer) => createHmac("sha256", secret).update(payload).digest().subarray(0, MAC)
  return {
    issue: (input: {
      readonly businessId: string
      readonly applicationId: string
      readonly environment: Environment
      readonly nowMillis: number
    }): string => {
      const payload = Buffer.alloc(PAYLOAD)
      payload.writeUInt8(VERSION, 0)
      uuidBytes(input.businessId).copy(payload, 1)
      uuidBytes(input.applicationId).copy(payload, 17)
      payload.writeUInt8(input.environment === "SANDBOX" ? 0 : 1, 33)
      payload.writeUInt32BE(Math.floor(input.nowMillis / 1000) + LIFETIME_SECONDS, 34)
      return `bt_${Buffer.concat([payload, mac(payload)]).toString("base64url")}`
    },
    check: (
      token: string,
      input: { readonly applicationId: string; readonly environment: Environment; readonly nowMillis: number }
    ): Either.Either<{ readonly businessId: string }, Refusal> => {
      if (token.length !== TOKEN_LENGTH || !/^bt_[A-Za-z0-9_-]+$/.test(token)) {
        return Either.left("business_token_invalid")
      }
      const raw = Buffer.from(token.slice(3), "base64url")
      if (raw.length !== PAYLOAD + MAC) return Either.left("business_token_invalid")
      const payload = raw.subarray(0, PAYLOAD)
      if (!timingSafeEqual(raw.subarray(PAYLOAD), mac(payload)) || payload.readUInt8(0) !== VERSION) {
        return Either.left("business_token_invalid")
      }
      // Another application's or environment's token is as good as unknown.
      if (
        uuidOf(payload.subarray(17, 33)) !== input.applicationId.toLowerCase() ||
        payload.readUInt8(33) !== (input.environment === "SANDBOX" ? 0 : 1)
      ) return Either.left("business_token_invalid")
      if (payload.readUInt32BE(34) * 1000 <= input.nowMillis) return Either.left("business_token_expired")
      return Either.right({ businessId: uuidOf(payload.subarray(1, 17)) })
    }
  }
}

/** The host's token service. */
export class BusinessTokens extends Context.Tag("@osiris/http/BusinessTokens")<
  BusinessTokens,
  ReturnType<typeof make>
>() {
  /** Tokens under the host secret in the database (made on first start, then shared by every process). */
  static readonly layer = Layer.effect(
    BusinessTokens,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`insert into host_secrets (name, value) values ('business_token', ${randomBytes(32)})
        on conflict (name) do nothing`
      const rows = yield* sql<{ value: Uint8Array }>`select value from host_secrets where name = 'business_token'`
      return make(Buffer.from(rows[0]!.value))
    }).pipe(Effect.orDie)
  )
}
