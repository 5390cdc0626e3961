/** Shared set-up of the host suites: a served host per backend, a client (application, keys, URL), pending searches. */
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Engine, Formats, type Ids, type Registry, type Search, type SearchRequest } from "@osiris/core"
import { Clock, Effect, Layer, Redacted } from "effect"
import { ApiKeys, Host } from "../src/index.js"
import type { Backend } from "./Backends.js"

/** `{base_url}` of the served hosts. */
export const BASE_URL = "http://osiris.test"

/** The whole host served on an ephemeral port over a fresh database of the backend. */
export const serverFor = (
  backend: Backend,
  sandboxRegistry: ReadonlyArray<Registry.RegistryBusiness>,
  productionRegistry?: ReadonlyArray<Registry.RegistryBusiness>,
  serveOptions: Parameters<typeof Host.serve>[0] = {},
  config: Partial<Host.HostConfig> = {}
) =>
  Host.serve(serveOptions).pipe(
    Layer.provideMerge(Host.layerApi({
      baseUrl: BASE_URL,
      sandboxRegistry,
      ...(productionRegistry === undefined ? {} : { productionRegistry }),
      ...config
    })),
    Layer.provideMerge(Host.layerRepos),
    Layer.provideMerge(backend.fresh()),
    Layer.provideMerge(NodeHttpServer.layerTest),
    // The host's background workers poll on the real clock (the suites' TestClock never moves).
    Layer.provide(Layer.setClock(Clock.make()))
  )

/** A new application with a sandbox and a production key, and the server's address. */
export const client = Effect.gen(function*() {
  const keys = yield* ApiKeys.ApiKeysRepo
  const app = yield* keys.ensureApplication(`app-${Math.random().toString(36).slice(2)}`)
  const sandbox = yield* keys.create({ applicationId: app.id, environment: "SANDBOX", name: "t", scopes: [] })
  const live = yield* keys.create({ applicationId: app.id, environment: "PRODUCTION", name: "p", scopes: [] })
  const address = yield* HttpServer.addressWith((a) => Effect.succeed(a))
  const base = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
  return { app, base, key: Redacted.value(sandbox.key), live: Redacted.value(live.key) }
})

/** The user searches are recorded under in these suites. */
export const user: Search.SearchUser = {
  id: "0192f3a4-5b6c-7d8e-9f01-0000000000bb" as Search.SearchUser["id"],
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com"
}

/** A PENDING Search for a request, as the host stores it at creation. */
export const pendingFor = (
  request: SearchRequest.CreateSearchRequest,
  id: string,
  idempotencyKey: string | null = null
): Search.Search => {
  const at = Formats.timestampFromMillis(Date.UTC(2026, 10, 21, 12))
  return Engine.pendingSearch(request, {
    id: id as Search.Search["id"],
    created_at: at,
    updated_at: at,
    options: [],
    orderables: [],
    user,
    idempotency_key: idempotencyKey
  }, { baseUrl: BASE_URL })
}

/** The id service the served host provides (named here so the layer's type can be written out). */
export type HostIds = Ids.Ids

/** A JSON call with a key; the status and the parsed body. */
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
