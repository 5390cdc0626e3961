/**
 * Standard Webhooks signatures (DECISIONS section 8): HMAC-SHA256 over `id.timestamp.body`, headers
 * `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64>`, space separated,
 * several during a secret rotation), secrets `whsec_` + base64 of 32 bytes, 5 minutes of tolerance,
 * constant-time comparison. `verify` is for receivers: it works on the raw body and says why a
 * delivery was refused.
 */
import { Clock, Data, Effect, Either } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

/** Prefix of signing secrets. */
export const SECRET_PREFIX = "whsec_"

/** How far a timestamp may be from the receiver's clock, in seconds. */
export const TOLERANCE_SECONDS = 5 * 60

/** The three signature headers (lower case, as HTTP/2 and most frameworks present them). */
export const HEADERS = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" } as const

/** A secret that is not `whsec_` followed by standard base64. */
export class InvalidSecret extends Data.TaggedError("InvalidSecret")<{ readonly reason: string }> {}

/** A signature header is absent or empty. */
export class MissingHeader extends Data.TaggedError("MissingHeader")<{ readonly header: string }> {}

/** `webhook-timestamp` is not a number of seconds. */
export class MalformedTimestamp extends Data.TaggedError("MalformedTimestamp")<{ readonly value: string }> {}

/** The timestamp is further than the tolerance from now (a replay, or a skewed clock). */
export class TimestampOutOfTolerance extends Data.TaggedError("TimestampOutOfTolerance")<{
  readonly direction: "past" | "future"
  readonly skewSeconds: number
}> {}

/** No `v1` signature in the header matches the body under the secret(s). */
export class SignatureMismatch extends Data.TaggedError("SignatureMismatch")<{}> {}

/** Why a delivery was refused. */
export type VerificationError =
  | InvalidSecret
  | MissingHeader
  | MalformedTimestamp
  | TimestampOutOfTolerance
  | SignatureMismatch

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** The key bytes of a secret (with or without the `whsec_` prefix). */
export const secretBytes = (secret: string): Either.Either<Buffer, InvalidSecret> => {
  const raw = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret
  if (raw.length === 0 || raw.length % 4 !== 0 || !BASE64.test(raw)) {
    return Either.left(new InvalidSecret({ reason: "expected whsec_ followed by standard base64" }))
  }
  const bytes = Buffer.from(raw, "base64")
  return bytes.length < 16
    ? Either.left(new InvalidSecret({ reason: "a secret has at least 16 bytes" }))
    : Either.right(bytes)
}

/** A secret from 32 key bytes. */
export const secretFrom = (bytes: Uint8Array): string => `${SECRET_PREFIX}${Buffer.from(bytes).toString("base64")}`

/** A new random secret (32 bytes from the operating system's CSPRNG). */
export const newSecret: Effect.Effect<string> = Effect.sync(() => secretFrom(randomBytes(32)))

const toBuffer = (
  body: string | Uint8Array
) => (typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body))

const mac = (key: Buffer, id: string, timestamp: number, body: string | Uint8Array): Buffer =>
  createHmac("sha256", key).update(`${id}.${timestamp}.`).update(toBuffer(body)).digest()

/** The `v1,<base64>` signature of a message under one secret. */
export const sign = (secret: string, id: string, timestamp: number, body: string | Uint8Array): string =>
  `v1,${mac(Either.getOrThrow(secretBytes(secret)), id, timestamp, body).toString("base64")}`

/** The three headers of a delivery, signed with every given secret (old and new during a rotation). */
export const headersFor = (
  secrets: ReadonlyArray<string>,
  id: string,
  timestamp: number,
  body: string | Uint8Array
): Record<(typeof HEADERS)[keyof typeof HEADERS], string> => ({
  [HEADERS.id]: id,
  [HEADERS.timestamp]: String(timestamp),
  [HEADERS.signature]: secrets.map((s) => sign(s, id, timestamp, body)).join(" ")
})

/** Headers as a receiver may have them: a Headers object, or a record with any case of names. */
export type HeaderSource =
  | { readonly get: (name: string) => string | null }
  | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const header = (headers: HeaderSource, name: string): string | undefined => {
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get: (n: string) => string | null }).get(name) ?? undefined
  }
  for (const [k, v] of Object.entries(headers as Record<string, string | ReadonlyArray<string> | undefined>)) {
    if (k.toLowerCase() === name) return typeof v === "string" ? v : v?.[0]
  }
  return undefined
}

/** A delivery that passed verification. */
export interface Verified {
  readonly id: string
  readonly timestamp: number
  /** The raw body as text (parse it yourself: it is exactly what was signed). */
  readonly body: string
}

/** Verifies a delivery at a given time (seconds since the epoch). */
export const verifyAt = (
  nowSeconds: number,
  secret: string | ReadonlyArray<string>,
  headers: HeaderSource,
  rawBody: string | Uint8Array,
  toleranceSeconds = TOLERANCE_SECONDS
): Either.Either<Verified, VerificationError> => {
  const keys: Array<Buffer> = []
  for (const s of typeof secret === "string" ? [secret] : secret) {
    const k = secretBytes(s)
    if (Either.isLeft(k)) return Either.left(k.left)
    keys.push(k.right)
  }
  const id = header(headers, HEADERS.id)
  const ts = header(headers, HEADERS.timestamp)
  const signatures = header(headers, HEADERS.signature)
  for (const [name, value] of [[HEADERS.id, id], [HEADERS.timestamp, ts], [HEADERS.signature, signatures]] as const) {
    if (value === undefined || value.trim() === "") return Either.left(new MissingHeader({ header: name }))
  }
  if (!/^\d{1,12}$/.test(ts!.trim())) return Either.left(new MalformedTimestamp({ value: ts! }))
  const timestamp = Number(ts!.trim())
  const skew = nowSeconds - timestamp
  if (skew > toleranceSeconds) return Either.left(new TimestampOutOfTolerance({ direction: "past", skewSeconds: skew }))
  if (-skew > toleranceSeconds) {
    return Either.left(new TimestampOutOfTolerance({ direction: "future", skewSeconds: -skew }))
  }
  const expected = keys.map((k) => mac(k, id!, timestamp, rawBody))
  for (const token of signatures!.split(" ")) {
    const [version, value] = token.split(",", 2)
    if (version !== "v1" || value === undefined || !BASE64.test(value)) continue
    const given = Buffer.from(value, "base64")
    // Constant time: only equal-length digests are compared, and with timingSafeEqual.
    if (expected.some((e) => e.length === given.length && timingSafeEqual(e, given))) {
      return Either.right({ id: id!, timestamp, body: toBuffer(rawBody).toString("utf8") })
    }
  }
  return Either.left(new SignatureMismatch())
}

/** Verifies a delivery against the receiver's clock (for receivers' code). */
export const verify = (
  secret: string | ReadonlyArray<string>,
  headers: HeaderSource,
  rawBody: string | Uint8Array
): Either.Either<Verified, VerificationError> => verifyAt(Math.floor(Date.now() / 1000), secret, headers, rawBody)

/** Verifies a delivery against Effect's `Clock` (testable with `TestClock`). */
export const verifyEffect = (
  secret: string | ReadonlyArray<string>,
  headers: HeaderSource,
  rawBody: string | Uint8Array
): Effect.Effect<Verified, VerificationError> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => verifyAt(Math.floor(now / 1000), secret, headers, rawBody))
