/**
 * The reference host, assembled: storage (migrated at start), repositories, the engines per
 * environment, and the HTTP API. The sandbox registry is the fixture registry (`Sandbox.registry()`);
 * the production registry is the operator's, imported into the database.
 */
import {
  HttpApiBuilder,
  HttpApiScalar,
  type HttpApp,
  HttpMiddleware,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import type { Migrator, SqlClient, SqlError } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { Engine, Ids, Registry, Sandbox, Watchlist } from "@osiris/core"
import { Dispatcher, Store } from "@osiris/webhooks"
import { type Duration, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { OsirisApi } from "./Api.js"
import * as ApiKeysHttp from "./ApiKeys/Http.js"
import { ApiKeysRepo } from "./ApiKeys/Repo.js"
import * as Auth from "./Auth.js"
import * as AutocompleteHttp from "./Autocomplete/Http.js"
import * as BusinessesHttp from "./Businesses/Http.js"
import { BusinessTokens } from "./BusinessTokens.js"
import * as ConsoleHttp from "./Console/Http.js"
import * as Errors from "./Errors.js"
import * as Health from "./Health.js"
import { IdempotencyRepo } from "./Idempotency/Repo.js"
import * as OrderablesHttp from "./Orderables/Http.js"
import * as Providers from "./Orderables/Providers.js"
import { OrderablesRepo } from "./Orderables/Repo.js"
import * as OrderablesWorker from "./Orderables/Worker.js"
import * as RateLimit from "./RateLimit.js"
import * as RegistryDatabase from "./Registry/Database.js"
import * as SearchesHttp from "./Searches/Http.js"
import { SearchesRepo } from "./Searches/Repo.js"
import { SearchSignals } from "./Searches/Signals.js"
import { Engines } from "./Searches/Worker.js"
import * as Worker from "./Searches/Worker.js"
import * as Migrations from "./Storage/Migrations.js"
import * as UsageHttp from "./Usage/Http.js"
import { UsageRepo } from "./Usage/Repo.js"
import * as WebhooksHttp from "./Webhooks/Http.js"

/** The router's longest path parameter (find-my-way's `maxParamLength`); longer ones match no route. */
const MAX_SEGMENT = 100

/** Whether the router can route a request target: its path decodes and no segment is over the limit. */
const routable = (url: string) => {
  const q = url.search(/[?#]/)
  const path = q < 0 ? url : url.slice(0, q)
  try {
    decodeURIComponent(path)
  } catch {
    return false
  }
  return path.split("/").every((segment) => segment.length <= MAX_SEGMENT)
}

const notFound = HttpServerResponse.unsafeJson({ detail: "Not found." }, { status: 404 })

/**
 * A path with broken percent-encoding, or one the router gives up on (a segment over its length
 * limit), names no resource: the documented 404 rather than the router's empty one.
 */
const withValidPath = <E, R>(app: HttpApp.Default<E, R>) =>
  Effect.flatMap(
    HttpServerRequest.HttpServerRequest,
    (request): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
      routable(request.url) ? app : Effect.succeed(notFound)
  )

/**
 * Serving the API with the per-key rate limit (default 100 requests per second, bursts of 200) and,
 * optionally, a request log. The documented bodies for unanswered failures (500/503) come from
 * `Errors.middleware`, installed inside the API by `layerApi`.
 */
export const serve = (
  options: { readonly log?: boolean; readonly rateLimit?: RateLimit.RateLimitOptions | false } = {}
) => {
  const limit = options.rateLimit === false
    ? <A>(app: A) => app
    : RateLimit.middleware(options.rateLimit ?? { perSecond: 100, burst: 200 })
  return HttpApiBuilder.serve((app) => {
    const served = limit(withValidPath(app))
    return options.log === true ? HttpMiddleware.logger(served) : served
  })
}

/**
 * Lingering close after a refused request: read and drop what the client is still sending for up to
 * 2 s, so closing with unread input does not reset the connection before the client reads the answer.
 */
const linger = (socket: Duplex) => {
  socket.on("data", () => {})
  socket.resume()
  setTimeout(() => socket.destroy(), 2000).unref()
}

/**
 * The Node HTTP server the host runs on. Requests Node's parser refuses before the API sees them
 * (malformed request lines or headers, invalid characters, headers over Node's limit) get the
 * documented `{"detail"}` body instead of Node's bare 400; connections close without resetting
 * under an answer the client has not read yet.
 */
export const nodeServer = (): Server => {
  const server = createServer()
  // An answer sent before the body was read (a 404, a 401, a 413): drop the rest of the body for a
  // moment rather than close with unread input, which resets the connection under the answer.
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    res.once("finish", () => {
      if (req.complete) return
      // Drain what is left (the connection stays usable once the body is in), for 2 s at most.
      req.resume()
      setTimeout(() => req.complete || req.socket.destroy(), 2000).unref()
    })
  })
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === "ECONNRESET") return socket.destroy()
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW"
    const body = JSON.stringify({
      detail: tooLarge ? "The request headers are too large." : "The request is not valid HTTP/1.1."
    })
    socket.end(
      `HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\n` +
        `content-type: application/json\r\ncontent-length: ${
          Buffer.byteLength(body)
        }\r\nconnection: close\r\n\r\n${body}`
    )
    linger(socket)
  })
  return server
}

/** What the host needs to know. */
export interface HostConfig {
  readonly baseUrl: string
  /** `{console_url}` (default `{base_url}/console`). */
  readonly consoleUrl?: string
  /** Webhook delivery: the outbound guard (development mode allows http and loopback) and the poll interval. */
  readonly webhooks?: {
    readonly allowInsecure?: boolean
    readonly poll?: Duration.DurationInput
    /** Run the delivery worker in this process (default true). */
    readonly deliver?: boolean
  }
  /** The sanctions list both environments screen against (default: the bundled OFAC SDN list). */
  readonly watchlist?: Layer.Layer<Watchlist.WatchlistSource>
  /** The PEP list production PEP screening uses (none: those orderables fail, saying so). */
  readonly pepList?: Providers.PepList
  /** Where production enhanced searches find officers and addresses online (none: they fail, saying so). */
  readonly enhancedSource?: Providers.EnhancedSource
  readonly sandboxRegistry?: ReadonlyArray<Registry.RegistryBusiness>
  /** The sandbox registry as a service (the testkit's, with its magic inputs); wins over `sandboxRegistry`. */
  readonly sandboxRegistryLayer?: Layer.Layer<Registry.Registry>
  readonly productionRegistry?: ReadonlyArray<Registry.RegistryBusiness>
}

const engineFor = (
  config: HostConfig,
  registry: Layer.Layer<Registry.Registry, never, PgClient.PgClient>,
  services: Parameters<typeof Engine.Engine.layerDefaults>[2]
) =>
  Effect.provide(
    Engine.Engine,
    Engine.Engine.layerDefaults(
      { baseUrl: config.baseUrl, ...(config.consoleUrl === undefined ? {} : { consoleUrl: config.consoleUrl }) },
      registry,
      services
    )
  )

/**
 * The engines per environment: the sandbox searches the sandbox registry (in memory) with the
 * sandbox's magic TIN authority and website resolver (core `Sandbox`); production
 * searches the registry imported into the database (`osiris registry import`), or the records given.
 * Both screen against one watchlist index, built once.
 */
export const layerEngines = (config: HostConfig) =>
  Layer.effect(
    Engines,
    Effect.gen(function*() {
      const screening = config.watchlist ??
        Layer.succeed(
          Watchlist.WatchlistSource,
          yield* Effect.provide(Watchlist.WatchlistSource, Watchlist.WatchlistSource.layerOfacSdn)
        )
      return yield* Effect.all({
        SANDBOX: engineFor(
          config,
          config.sandboxRegistryLayer ?? Sandbox.layerRegistry(config.sandboxRegistry ?? Sandbox.registry()),
          { watchlist: screening, tin: Sandbox.layerTinAuthority, websites: Sandbox.layerWebsites }
        ),
        PRODUCTION: engineFor(
          config,
          config.productionRegistry === undefined
            ? RegistryDatabase.layer
            : Registry.Registry.layerMemory(config.productionRegistry),
          { watchlist: screening }
        )
      })
    })
  )

/** The repositories. */
export type Repos =
  | ApiKeysRepo
  | SearchesRepo
  | OrderablesRepo
  | UsageRepo
  | IdempotencyRepo
  | BusinessTokens
  | SearchSignals
  | Store.WebhookStore
  | Ids.Ids

/** Repositories on a migrated database (requires the database layer). */
export const layerRepos: Layer.Layer<
  Repos,
  SqlError.SqlError | Migrator.MigrationError,
  PgClient.PgClient | SqlClient.SqlClient
> = Layer.mergeAll(
  ApiKeysRepo.layer,
  SearchesRepo.layer,
  OrderablesRepo.layer,
  UsageRepo.layer,
  IdempotencyRepo.layer,
  BusinessTokens.layer,
  SearchSignals.layer
).pipe(
  Layer.provideMerge(Store.WebhookStore.layer),
  Layer.provideMerge(Layer.effectDiscard(Migrations.run)),
  Layer.provideMerge(Ids.Ids.layer)
)

/** Background workers that claim and run due searches and orderables (requires the repositories and engines). */
export const layerWorker = Layer.scopedDiscard(Effect.gen(function*() {
  const owner = `worker-${randomUUID()}`
  // Runs after the workers below were interrupted (finalizers run in reverse): nothing stays claimed.
  const searches = yield* SearchesRepo
  yield* Effect.addFinalizer(() => searches.releaseOwner(owner).pipe(Effect.ignoreLogged))
  yield* Effect.forkScoped(Worker.worker(owner))
  yield* Effect.forkScoped(OrderablesWorker.worker(owner))
}))

/** The orderable providers: deterministic in the sandbox, real in production. */
export const layerProviders = (config: HostConfig) =>
  Layer.succeed(Providers.OrderProviders, {
    SANDBOX: Providers.sandbox,
    PRODUCTION: Providers.production({
      guard: { allowInsecure: config.webhooks?.allowInsecure === true },
      ...(config.pepList === undefined ? {} : { pepList: config.pepList }),
      ...(config.enhancedSource === undefined ? {} : { enhancedSource: config.enhancedSource })
    })
  })

/** Webhook settings and the delivery worker (requires the repositories). */
export const layerWebhooks = (config: HostConfig) => {
  const guard = { allowInsecure: config.webhooks?.allowInsecure === true }
  const settings = Layer.succeed(WebhooksHttp.WebhookSettings, { guard })
  if (config.webhooks?.deliver === false) return settings
  const worker = Layer.scopedDiscard(Effect.forkScoped(Dispatcher.run({
    owner: `deliveries-${randomUUID()}`,
    guard,
    ...(config.webhooks?.poll === undefined ? {} : { poll: config.webhooks.poll })
  })))
  return Layer.merge(settings, worker)
}

/** The HTTP API's handlers (requires the repositories and engines). */
export const layerApi = (config: HostConfig) => {
  const api = HttpApiBuilder.api(OsirisApi).pipe(
    Layer.provide(SearchesHttp.layer),
    Layer.provide(BusinessesHttp.layer),
    Layer.provide(AutocompleteHttp.layer),
    Layer.provide(OrderablesHttp.layer),
    Layer.provide(UsageHttp.layer),
    Layer.provide(ApiKeysHttp.layer),
    Layer.provide(WebhooksHttp.layer),
    Layer.provide(Health.layer),
    Layer.provide(Auth.layer)
  )
  return Layer.mergeAll(
    api,
    // The OpenAPI document and an interactive reference (Scalar, inlined from the npm package: no network).
    HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" }).pipe(Layer.provide(api)),
    // Inside the API, where failures are still causes: the framework turns what escapes into an
    // empty 500 before a server-level middleware could see it.
    HttpApiBuilder.middleware(Errors.middleware),
    HttpApiScalar.layer({ path: "/docs" }).pipe(Layer.provide(api)),
    ConsoleHttp.layer,
    Errors.layerNotFound,
    layerWorker
  ).pipe(
    Layer.provide(layerEngines(config)),
    Layer.provide(layerProviders(config)),
    Layer.provideMerge(layerWebhooks(config))
  )
}
