/**
 * The host as a layer for Effect test suites (`@effect/vitest`'s `layer`): the whole API served on an
 * ephemeral port over a fresh database of a backend, with the registries and configuration a suite
 * chooses; `client` makes an application with a sandbox and a production key; `call` is a JSON call.
 * `startSandboxHost` is the same host for suites written with promises.
 */
import { type HttpClient, HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import type { Registry } from "@osiris/core"
import { ApiKeys, Host } from "@osiris/http"
import { Clock, Effect, Layer, Redacted } from "effect"
import type { Backend } from "./Backends.js"

/** `{base_url}` of hosts served by `layer` (the address they listen on is `client`'s `base`). */
export const BASE_URL = "http://osiris.test"

/** What a test host runs with. */
export interface TestHostOptions {
  /** Records of the sandbox registry (default: the fixture registry, with the magic inputs). */
  readonly sandboxRegistry?: ReadonlyArray<Registry.RegistryBusiness>
  /** Records of the production registry (default: the registry imported into the database). */
  readonly productionRegistry?: ReadonlyArray<Registry.RegistryBusiness>
  /** How the API is served (rate limit, request log). */
  readonly serve?: Parameters<typeof Host.serve>[0]
  /** Anything else of the host's configuration. */
  readonly config?: Partial<Host.HostConfig>
}

/**
 * The host's Node server on an ephemeral port (so Node's parser refusals get the documented body),
 * and an `HttpClient` whose requests go to it (as `NodeHttpServer.layerTest`).
 */
const server = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerWithoutAgent),
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
  Layer.provideMerge(NodeHttpServer.layer(Host.nodeServer, { port: 0 }))
)

/** The whole host served on an ephemeral port over a fresh, migrated database of the backend. */
export const layer = (backend: Backend, options: TestHostOptions = {}): Layer.Layer<
  Host.Repos | PgClient.PgClient | SqlClient.SqlClient | HttpServer.HttpServer | HttpClient.HttpClient,
  unknown
> =>
  Host.serve(options.serve ?? {}).pipe(
    Layer.provideMerge(Host.layerApi({
      baseUrl: BASE_URL,
      ...(options.sandboxRegistry === undefined ? {} : { sandboxRegistry: options.sandboxRegistry }),
      ...(options.productionRegistry === undefined ? {} : { productionRegistry: options.productionRegistry }),
      ...options.config
    })),
    Layer.provideMerge(Host.layerRepos),
    Layer.provideMerge(backend.migrated()),
    Layer.provideMerge(server),
    // The host's background workers poll on the real clock (a suite's TestClock never moves).
    Layer.provide(Layer.setClock(Clock.make()))
  )

/** A new application with a sandbox and a production key, and the served host's address. */
export const client = Effect.gen(function*() {
  const keys = yield* ApiKeys.ApiKeysRepo
  const app = yield* keys.ensureApplication(`app-${Math.random().toString(36).slice(2)}`)
  const sandbox = yield* keys.create({ applicationId: app.id, environment: "SANDBOX", name: "t", scopes: [] })
  const live = yield* keys.create({ applicationId: app.id, environment: "PRODUCTION", name: "p", scopes: [] })
  const address = yield* HttpServer.addressWith((a) => Effect.succeed(a))
  const base = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
  return { app, base, key: Redacted.value(sandbox.key), live: Redacted.value(live.key) }
})

/** A JSON call with a key: the status and the parsed body. */
export const call = (base: string, key: string, method: string, path: string, body?: unknown) =>
  Effect.promise(async () => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { "x-api-key": key, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await r.text()
    return { status: r.status, body: (text === "" ? null : JSON.parse(text)) as any }
  })
