/**
 * Small JSON bodies of the platform endpoints (API keys, webhooks): read with the 1 MiB limit,
 * parsed, decoded with a Schema; anything else is a 413, 415 or a 422 in the documented shape with
 * one `value_error` that says what was expected.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { RequestValidation } from "@osiris/core"
import { Effect, Either, Schema } from "effect"

/** The largest body the host reads (DECISIONS section 5). */
export const MAX_BODY = 1024 * 1024

/** A JSON response. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers })

/** The validator's answer (a byte-exact 422, or 400), as it rendered it. */
export const rejected = (r: RequestValidation.RequestRejected) =>
  HttpServerResponse.text(r.body, { status: r.status, contentType: "application/json" })

/** A 422 with the given details, byte-exact like the validator's. */
export const unprocessable = (detail: ReadonlyArray<RequestValidation.ErrorDetail>) =>
  rejected(RequestValidation.unprocessable(detail))

/** One `value_error` detail at `loc`. */
export const valueErrorDetail = (
  loc: ReadonlyArray<string | number>,
  msg: string,
  input: unknown
): RequestValidation.ErrorDetail => ({
  type: "value_error",
  loc,
  msg: `Value error, ${msg}`,
  input,
  ctx: { error: {} }
})

/** A 422 with one `value_error` at `loc`. */
export const valueError = (loc: ReadonlyArray<string | number>, msg: string, input: unknown) =>
  unprocessable([valueErrorDetail(loc, msg, input)])

/**
 * The request's query for handlers that read it themselves: a repeated parameter takes its last
 * value (as `GET /searches` does, and Starlette).
 */
export const query = Effect.map(HttpServerRequest.HttpServerRequest, (req) => {
  const params = new URL(req.url, "http://host").searchParams
  return { get: (name: string): string | null => params.getAll(name).at(-1) ?? null }
})

const tooLarge = () => json(413, { detail: "The request body is larger than 1 MiB." }, { connection: "close" })

/**
 * Reads the raw body, at most `limit` bytes: the bytes, "too-large" as soon as the limit is passed
 * (the rest is never read; the connection closes after the answer), or "unreadable".
 */
const readNode = (req: HttpServerRequest.HttpServerRequest, limit: number) =>
  Effect.async<Uint8Array, "too-large" | "unreadable">((resume) => {
    const incoming = NodeHttpServerRequest.toIncomingMessage(req)
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (r: Effect.Effect<Uint8Array, "too-large" | "unreadable">) => {
      if (done) return
      done = true
      incoming.off("data", onData)
      resume(r)
    }
    const onData = (c: Buffer) => {
      size += c.length
      if (size > limit) {
        incoming.pause()
        finish(Effect.fail("too-large"))
      } else chunks.push(c)
    }
    incoming.on("data", onData)
    incoming.once("end", () => finish(Effect.succeed(new Uint8Array(Buffer.concat(chunks)))))
    incoming.once("error", () => finish(Effect.fail("unreadable")))
    incoming.once("aborted", () => finish(Effect.fail("unreadable")))
  })

/** Reads the body within the limit: the bytes, or the 413 (or 400) answer. */
export const readLimited: Effect.Effect<
  Either.Either<Uint8Array, HttpServerResponse.HttpServerResponse>,
  never,
  HttpServerRequest.HttpServerRequest
> = Effect.gen(function*() {
  const req = yield* HttpServerRequest.HttpServerRequest
  // Refused from the Content-Length before reading; otherwise reading stops at the limit.
  const declared = Number(req.headers["content-length"] ?? "0")
  if (declared > MAX_BODY) return Either.left(tooLarge())
  const read = yield* Effect.either(readNode(req, MAX_BODY))
  if (Either.isRight(read)) return Either.right(read.right)
  return Either.left(
    read.left === "too-large" ? tooLarge() : json(400, { detail: "The body could not be read." })
  )
})

/** Deepest nesting of a JSON body the host reads (the searches endpoint's parser stops near Python's limit). */
const MAX_DEPTH = 256

/** Whether a parsed JSON value nests deeper than `MAX_DEPTH` (walked without recursion). */
const tooDeep = (value: unknown): boolean => {
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (v === null || typeof v !== "object") continue
    if (depth >= MAX_DEPTH) return true
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1])
  }
  return false
}

/** Whether a Content-Type names JSON. */
export const isJsonType = (contentType: string | undefined) =>
  /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType ?? "")

/** Reads and decodes a JSON body; `expected` describes the shape for the 422 message. */
export const decode = <A, I>(
  schema: Schema.Schema<A, I>,
  expected: string
): Effect.Effect<Either.Either<A, HttpServerResponse.HttpServerResponse>, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const req = yield* HttpServerRequest.HttpServerRequest
    const bytes = yield* readLimited
    if (Either.isLeft(bytes)) return Either.left(bytes.left)
    if (bytes.right.length > 0 && !isJsonType(req.headers["content-type"])) {
      return Either.left(json(415, { detail: "Send the body as application/json." }))
    }
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes.right)
    const parsed = Either.try(() => JSON.parse(text === "" ? "{}" : text) as unknown)
    // Nested deeper than any body of ours: unreadable, as the searches endpoint answers it.
    if (Either.isRight(parsed) && tooDeep(parsed.right)) {
      return Either.left(json(400, { detail: RequestValidation.UNREADABLE_BODY }))
    }
    const body = Either.isRight(parsed) ? Schema.decodeUnknownEither(schema)(parsed.right) : undefined
    if (body === undefined || Either.isLeft(body)) {
      return Either.left(valueError(["body"], `expected ${expected}`, Either.isRight(parsed) ? parsed.right : null))
    }
    return Either.right(body.right)
  })
