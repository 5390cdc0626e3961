/**
 * Handlers of the searches group. `POST /searches` reads the raw body and answers the core
 * validator's byte-exact 422s; a valid request is stored PENDING (with its Idempotency-Key, in one
 * transaction), then run synchronously by this process under a lease (a process that dies leaves it
 * to the lease's expiry), and answered 201 with the finished Search.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Engine, Formats, Ids, RequestValidation, type Search, SearchRequest, SearchState } from "@osiris/core"
import { Events } from "@osiris/webhooks"
import { Clock, Duration, Effect, Either, Exit, Fiber, Option } from "effect"
import { randomUUID } from "node:crypto"
import { CurrentKey, OsirisApi } from "../Api.js"
import type { ApiKey, Environment } from "../ApiKeys/Repo.js"
import * as Auth from "../Auth.js"
import * as Body from "../Body.js"
import { BusinessTokens } from "../BusinessTokens.js"
import { IdempotencyRepo } from "../Idempotency/Repo.js"
import { fingerprint } from "../Idempotency/Repo.js"
import { kinds } from "../Orderables/Repo.js"
import { SearchesRepo, type StoredSearch } from "./Repo.js"
import { SearchSignals } from "./Signals.js"
import { Engines, execute, LeaseMillis } from "./Worker.js"

const TERMINAL: ReadonlyArray<string> = ["COMPLETED", "FAILED", "CANCELLED"]

const cursorOf = (id: string) => Buffer.from(id, "utf8").toString("base64url")
const idOfCursor = (cursor: string) => {
  const id = Buffer.from(cursor, "base64url").toString("utf8")
  return Formats.isUuid(id) ? id : undefined
}
const json = Body.json

/** The validator's answer (a byte-exact 422, or 400), as it rendered it. */
const rejected = (r: RequestValidation.RequestRejected) =>
  HttpServerResponse.text(r.body, { status: r.status, contentType: "application/json" })

const userOf = (key: ApiKey): Search.SearchUser => ({
  id: key.applicationId as Search.SearchUser["id"],
  first_name: key.applicationName,
  last_name: "API",
  email: ""
})

/**
 * A value with its object keys in the order PostgreSQL's jsonb keeps them (shorter keys first, then
 * by bytes), so a search answered from memory is byte for byte the search later read back.
 */
const inJsonbOrder = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(inJsonbOrder)
  if (value === null || typeof value !== "object") return value
  const keys = Object.keys(value).sort((a, b) =>
    Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b))
  )
  const out: Record<string, unknown> = {}
  for (const k of keys) out[k] = inJsonbOrder((value as Record<string, unknown>)[k])
  return out
}

/** 404 for another application's search (never revealing it exists), 403 for the other environment's. */
const readable = (key: ApiKey, found: Option.Option<StoredSearch>) =>
  Option.isNone(found)
    ? Either.left(json(404, { detail: "Search not found." }))
    : found.value.environment !== key.environment
    ? Either.left(json(403, {
      detail: `A ${key.environment.toLowerCase()} key cannot read ${found.value.environment.toLowerCase()} resources.`
    }))
    : Either.right(found.value)

/** How a create request runs (DECISIONS section 1): in the background, or synchronously within a budget. */
type Mode = { readonly _tag: "Async" } | {
  readonly _tag: "Sync"
  readonly seconds: number
  readonly applied: string | undefined
}

/** Prefer (RFC 7240) wins over the legacy Accept flag; neither means the key's default mode. Unknown tokens are ignored. */
export const modeOf = (prefer: string | undefined, key: ApiKey): Mode => {
  const tokens = (prefer ?? "").split(",").map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0)
  if (tokens.includes("respond-async")) return { _tag: "Async" }
  const wait = tokens.map((t) => /^wait\s*=\s*(\d+)$/.exec(t)).find((m) => m !== null)
  if (wait !== undefined && wait !== null) {
    const seconds = Math.min(90, Math.max(1, Number(wait[1])))
    return { _tag: "Sync", seconds, applied: `wait=${seconds}` }
  }
  return key.defaultRequestMode === "async" ? { _tag: "Async" } : { _tag: "Sync", seconds: 30, applied: undefined }
}

/** The searches handlers. */
export const layer = HttpApiBuilder.group(OsirisApi, "searches", (handlers) =>
  Effect.gen(function*() {
    const searches = yield* SearchesRepo
    const idempotency = yield* IdempotencyRepo
    const ids = yield* Ids.Ids
    const engines = yield* Engines
    const tokens = yield* BusinessTokens
    const signals = yield* SearchSignals
    const owner = `host-${randomUUID()}`
    const leaseMillis = yield* LeaseMillis
    // Last thing on a stop (finalizers run in reverse): after the searches this process started were
    // interrupted, whatever it still holds goes back.
    yield* Effect.addFinalizer(() =>
      searches.releaseOwner(owner).pipe(Effect.catchAllCause((c) => Effect.logError("handing back failed", c)))
    )
    const scope = yield* Effect.scope
    const now = Effect.map(Clock.currentTimeMillis, Formats.timestampFromMillis)

    /** Runs this request's own search in the background (it may already be taken by a worker). */
    const start = (id: string) =>
      // The claim and the hand-back on a stop are one: a stop right after the claim leaves nothing claimed.
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(
          searches.claimById(id, owner, leaseMillis),
          (claimed) => (Option.isSome(claimed) ? restore(execute(claimed.value)) : Effect.succeed(undefined))
        )
      ).pipe(Effect.forkIn(scope))

    /** Answers a created (or replayed) search according to the mode: 201 when finished in time, else 202. */
    const respond = (
      key: ApiKey,
      id: string,
      mode: Mode,
      replay: boolean,
      running: Option.Option<Fiber.RuntimeFiber<unknown>>,
      created?: Search.Search
    ) =>
      Effect.gen(function*() {
        // The search this request ran itself, when it finished it (no need to read it back).
        let ranHere: Search.Search | undefined
        if (mode._tag === "Sync") {
          // One budget for the whole wait, on the sleeping clock (a sandbox clock that only moves
          // when told still sleeps in real time).
          yield* Effect.gen(function*() {
            if (Option.isSome(running)) {
              const exit = yield* Fiber.await(running.value)
              if (Exit.isSuccess(exit) && exit.value !== undefined) {
                ranHere = inJsonbOrder(exit.value) as Search.Search
                return
              }
            }
            // Another request (maybe in another process) runs it: wait for its finish to be announced.
            // Already finished (a replay, say): nothing to wait for.
            const stored = yield* searches.get(key.applicationId, id)
            if (Option.isSome(stored) && TERMINAL.includes(stored.value.state)) {
              ranHere = stored.value.body
              return
            }
            yield* Effect.scoped(Effect.gen(function*() {
              const finished = yield* signals.watch(id)
              let current = yield* searches.get(key.applicationId, id)
              while (Option.isSome(current) && !TERMINAL.includes(current.value.state)) {
                yield* finished
                current = yield* searches.get(key.applicationId, id)
              }
            }))
          }).pipe(Effect.timeout(Duration.seconds(mode.seconds)), Effect.ignore)
        }
        // A new asynchronous search is answered as created (PENDING, 202), whatever the worker did since.
        const s = ranHere ?? (mode._tag === "Async" && !replay && created !== undefined
          ? created
          : Option.getOrThrow(yield* searches.get(key.applicationId, id)).body)
        const done = TERMINAL.includes(s.state) && !(mode._tag === "Async" && !replay)
        const applied = mode._tag === "Async" ? "respond-async" : mode.applied
        return json(done ? 201 : 202, s, {
          ...headersFor(s, replay),
          ...(applied === undefined ? {} : { "preference-applied": applied }),
          ...(done ? {} : { "retry-after": "1" })
        })
      })

    const headersFor = (s: Search.Search, replay: boolean): Record<string, string> => ({
      location: s.url,
      "x-resource-id": s.id,
      vary: "Prefer, Accept",
      ...(replay ? { "idempotent-replayed": "true" } : {})
    })

    return handlers
      .handleRaw("create", () =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          if (!Auth.hasScope(key, "searches:write")) return Auth.lacksScope("searches:write")
          const req = yield* HttpServerRequest.HttpServerRequest
          // 1 MiB at most (DECISIONS section 5): refused from the Content-Length, or once 1 MiB was read.
          const read = yield* Body.readLimited
          if (Either.isLeft(read)) return read.left
          const body = read.right
          const contentType = req.headers["content-type"] ?? ""
          if (body.length > 0 && !Body.isJsonType(contentType)) {
            return json(415, { detail: "Send the body as application/json." })
          }
          const validated = RequestValidation.createSearch({ body, headers: req.headers })
          if (Either.isLeft(validated)) {
            return rejected(validated.left)
          }
          const { body: request, idempotencyKey } = validated.right
          const mode = modeOf(req.headers["prefer"], key)
          // Form 2: the token must be this application's and environment's, and alive (15 minutes).
          let resolved: { readonly businessId: string; readonly name: string; readonly address: string } | undefined
          if (SearchRequest.isBusinessTokenForm(request)) {
            const checked = tokens.check(request.business_token, {
              applicationId: key.applicationId,
              environment: key.environment,
              nowMillis: yield* Clock.currentTimeMillis
            })
            const business = Either.isRight(checked)
              ? yield* engines[key.environment].business(checked.right.businessId)
              : undefined
            if (business === undefined) {
              const expired = Either.isLeft(checked) && checked.left === "business_token_expired"
              return Body.unprocessable([{
                type: expired ? "business_token_expired" : "business_token_invalid",
                loc: ["body", "business_token"],
                msg: expired ? "The business token has expired" : "Unknown business token",
                input: request.business_token
              }])
            }
            resolved = { businessId: business.id, name: business.name, address: Engine.addressLineOf(business) }
          }
          const at = yield* now
          const id = (yield* ids.next) as Search.Search["id"]
          const engine = engines[key.environment as Environment]
          const options = [...new Set(request.options ?? [])]
          const orderables: Array<Search.Orderable> = []
          for (const option of options) {
            const oid = (yield* ids.next) as Search.Orderable["id"]
            orderables.push({
              id: oid,
              option,
              type: Events.recordTypes[option],
              url: `${engine.config.baseUrl}/${kinds[option]}/${oid}`
            })
          }
          const pending = Engine.pendingSearch(
            request,
            {
              id,
              created_at: at,
              updated_at: at,
              options,
              orderables,
              user: userOf(key),
              idempotency_key: idempotencyKey ?? null
            },
            engine.config,
            resolved
          )
          const create = searches.create({
            applicationId: key.applicationId,
            environment: key.environment,
            request,
            body: pending,
            ...(resolved === undefined ? {} : { businessId: resolved.businessId })
          })
          if (idempotencyKey === undefined) {
            yield* create
            return yield* respond(key, id, mode, false, Option.some(yield* start(id)), pending)
          }
          const claim = yield* idempotency.claim({
            applicationId: key.applicationId,
            environment: key.environment,
            resource: "search",
            key: idempotencyKey,
            fingerprint: fingerprint("POST", "/searches", [], JSON.parse(new TextDecoder().decode(body))),
            resourceId: id,
            at,
            create
          }).pipe(Effect.either)
          if (Either.isLeft(claim)) {
            return Body.unprocessable([{
              type: "idempotency_key_reused",
              loc: ["header", "idempotency-key"],
              msg: "This Idempotency-Key was used with a different request",
              input: idempotencyKey
            }])
          }
          if (claim.right._tag === "Created") {
            return yield* respond(key, id, mode, false, Option.some(yield* start(id)), pending)
          }
          // A replay: a synchronous request waits (within its budget) for the first one's search.
          return yield* respond(key, claim.right.resourceId, mode, true, Option.none())
        }))
      .handleRaw("list", () =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          if (!Auth.hasScope(key, "searches:read")) return Auth.lacksScope("searches:read")
          const req = yield* HttpServerRequest.HttpServerRequest
          const url = new URL(req.url, "http://host")
          const validated = RequestValidation.listSearches({ query: [...url.searchParams.entries()] })
          if (Either.isLeft(validated)) {
            return rejected(validated.left)
          }
          const q = validated.right
          const before = q.cursor === undefined ? undefined : idOfCursor(q.cursor)
          if (q.cursor !== undefined && before === undefined) {
            return Body.valueError(["query", "cursor"], "unknown cursor", q.cursor)
          }
          const rows = yield* searches.list({
            applicationId: key.applicationId,
            environment: key.environment,
            limit: q.limit + 1,
            before,
            state: q.state,
            referenceId: q.reference_id
          })
          const page = rows.slice(0, q.limit)
          return json(200, {
            data: page.map((r) => r.body),
            next_cursor: rows.length > q.limit ? cursorOf(page[page.length - 1]!.id) : null
          })
        }))
      .handleRaw("cancel", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          if (!Auth.hasScope(key, "searches:write")) return Auth.lacksScope("searches:write")
          const found = readable(key, yield* searches.get(key.applicationId, path.id))
          if (Either.isLeft(found)) return found.left
          const at = yield* now
          const result = yield* searches.cancel(key.applicationId, path.id, (s) => ({
            ...s,
            state: "CANCELLED",
            updated_at: at > s.updated_at ? at : s.updated_at
          }))
          const r = Option.getOrThrow(result)
          if (!r.cancelled) {
            return json(409, {
              detail: new SearchState.IllegalTransition({ from: r.search.state, to: "CANCELLED" }).message
            })
          }
          return json(200, r.search.body)
        }))
      .handleRaw("get", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          if (!Auth.hasScope(key, "searches:read")) return Auth.lacksScope("searches:read")
          const s = readable(key, yield* searches.get(key.applicationId, path.id))
          return Either.isLeft(s) ? s.left : json(200, s.right.body)
        }))
      .handleRaw("status", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          if (!Auth.hasScope(key, "searches:read")) return Auth.lacksScope("searches:read")
          const s = readable(key, yield* searches.get(key.applicationId, path.id))
          return Either.isLeft(s)
            ? s.left
            : json(200, { id: s.right.body.id, state: s.right.body.state, updated_at: s.right.body.updated_at })
        }))
  }))
