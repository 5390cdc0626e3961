/**
 * Handlers of the searches group. `POST /searches` reads the raw body and answers the core
 * validator's byte-exact 422s; a valid request is stored PENDING (with its Idempotency-Key, in one
 * transaction), then run synchronously by this process under a lease (a process that dies leaves it
 * to the lease's expiry), and answered 201 with the finished Search.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Engine, Formats, Ids, RequestValidation, type Search, SearchRequest } from "@osiris/core"
import { Clock, Context, Effect, Either, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { CurrentKey, OsirisApi } from "../Api.js"
import type { ApiKey, Environment } from "../ApiKeys/Repo.js"
import { IdempotencyRepo } from "../Idempotency/Repo.js"
import { fingerprint } from "../Idempotency/Repo.js"
import { SearchesRepo, type StoredSearch } from "./Repo.js"

/** The engine for each environment: sandbox keys see the sandbox registry only (DECISIONS section 3). */
export class Engines extends Context.Tag("@osiris/http/Engines")<Engines, {
  readonly SANDBOX: Context.Tag.Service<Engine.Engine>
  readonly PRODUCTION: Context.Tag.Service<Engine.Engine>
}>() {}

/** How long the synchronous path holds a search before another process may take it over. */
const LEASE_MILLIS = 60_000

const encodeSearch = Schema.encodeSync(Schema.Any)
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(encodeSearch(body), { status, headers })

const userOf = (key: ApiKey): Search.SearchUser => ({
  id: key.applicationId as Search.SearchUser["id"],
  first_name: key.applicationName,
  last_name: "API",
  email: ""
})

/** 404 for another application's search (never revealing it exists), 403 for the other environment's. */
const readable = (key: ApiKey, found: Option.Option<StoredSearch>) =>
  Option.isNone(found)
    ? Either.left(json(404, { detail: "Search not found." }))
    : found.value.environment !== key.environment
    ? Either.left(json(403, {
      detail: `A ${key.environment.toLowerCase()} key cannot read ${found.value.environment.toLowerCase()} resources.`
    }))
    : Either.right(found.value)

const hasScope = (key: ApiKey, scope: string) => key.scopes.length === 0 || key.scopes.includes(scope)

/** The searches handlers. */
export const layer = HttpApiBuilder.group(OsirisApi, "searches", (handlers) =>
  Effect.gen(function*() {
    const searches = yield* SearchesRepo
    const idempotency = yield* IdempotencyRepo
    const ids = yield* Ids.Ids
    const engines = yield* Engines
    const owner = `host-${randomUUID()}`
    const now = Effect.map(Clock.currentTimeMillis, Formats.timestampFromMillis)

    const run = (key: ApiKey, stored: StoredSearch, request: SearchRequest.CreateSearchRequest) =>
      Effect.gen(function*() {
        const claimed = yield* searches.claimById(stored.id, owner, LEASE_MILLIS)
        if (Option.isNone(claimed)) return stored.body
        const engine = engines[key.environment as Environment]
        const v = yield* engine.verify({ request })
        const finished = Engine.toSearch(v, {
          id: stored.body.id,
          created_at: stored.body.created_at,
          updated_at: yield* now,
          options: stored.body.options,
          orderables: stored.body.orderables,
          user: stored.body.user,
          idempotency_key: stored.body.idempotency_key
        }, engine.config)
        yield* searches.finish(stored.id, owner, v.state, finished)
        return finished
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
          if (!hasScope(key, "searches:write")) {
            return json(403, { detail: "This key lacks the searches:write scope." })
          }
          const req = yield* HttpServerRequest.HttpServerRequest
          const read = yield* Effect.either(req.arrayBuffer)
          if (Either.isLeft(read)) return json(400, { detail: "The body could not be read." })
          const body = new Uint8Array(read.right)
          const contentType = req.headers["content-type"] ?? ""
          if (body.length > 0 && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
            return json(415, { detail: "Send the body as application/json." })
          }
          const validated = RequestValidation.createSearch({ body, headers: req.headers })
          if (Either.isLeft(validated)) {
            return HttpServerResponse.text(validated.left.body, {
              status: validated.left.status,
              contentType: "application/json"
            })
          }
          const { body: request, idempotencyKey } = validated.right
          if (SearchRequest.isBusinessTokenForm(request)) {
            return HttpServerResponse.text(
              RequestValidation.unprocessable([{
                type: "business_token_invalid",
                loc: ["body", "business_token"],
                msg: "Unknown or expired business token",
                input: request.business_token
              }]).body,
              { status: 422, contentType: "application/json" }
            )
          }
          const at = yield* now
          const id = (yield* ids.next) as Search.Search["id"]
          const engine = engines[key.environment as Environment]
          const pending = Engine.pendingSearch(request, {
            id,
            created_at: at,
            updated_at: at,
            options: request.options ?? [],
            orderables: [],
            user: userOf(key),
            idempotency_key: idempotencyKey ?? null
          }, engine.config)
          const create = searches.create({
            applicationId: key.applicationId,
            environment: key.environment,
            request,
            body: pending
          })
          if (idempotencyKey === undefined) {
            yield* create
            const done = yield* run(key, {
              id,
              applicationId: key.applicationId,
              environment: key.environment,
              state: "PENDING",
              request,
              body: pending,
              attempts: 0
            }, request)
            return json(201, done, headersFor(done, false))
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
            return HttpServerResponse.text(
              RequestValidation.unprocessable([{
                type: "idempotency_key_reused",
                loc: ["header", "idempotency-key"],
                msg: "This Idempotency-Key was used with a different request",
                input: idempotencyKey
              }]).body,
              { status: 422, contentType: "application/json" }
            )
          }
          if (claim.right._tag === "Created") {
            const done = yield* run(key, {
              id,
              applicationId: key.applicationId,
              environment: key.environment,
              state: "PENDING",
              request,
              body: pending,
              attempts: 0
            }, request)
            return json(201, done, headersFor(done, false))
          }
          // A replay: wait (within the synchronous budget) for the first request's search to finish.
          const replayId = claim.right.resourceId
          let current = yield* searches.get(key.applicationId, replayId)
          for (
            let i = 0;
            i < 600 && Option.isSome(current) && !["COMPLETED", "FAILED", "CANCELLED"].includes(current.value.state);
            i++
          ) {
            yield* Effect.sleep("50 millis")
            current = yield* searches.get(key.applicationId, replayId)
          }
          const s = Option.getOrThrow(current).body
          const terminal = ["COMPLETED", "FAILED", "CANCELLED"].includes(s.state)
          return json(terminal ? 201 : 202, s, headersFor(s, true))
        }))
      .handleRaw("get", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          const s = readable(key, yield* searches.get(key.applicationId, path.id))
          return Either.isLeft(s) ? s.left : json(200, s.right.body)
        }))
      .handleRaw("status", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          const s = readable(key, yield* searches.get(key.applicationId, path.id))
          return Either.isLeft(s)
            ? s.left
            : json(200, { id: s.right.body.id, state: s.right.body.state, updated_at: s.right.body.updated_at })
        }))
  }))
