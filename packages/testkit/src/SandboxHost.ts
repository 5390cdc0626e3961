/**
 * `startSandboxHost`: the whole host in-process on an ephemeral loopback port, with in-memory
 * embedded storage, the fixture registry for sandbox keys, a sandbox clock, and a `WebhookSink`
 * already registered as the sandbox application's endpoint. Returns the base URL, a sandbox and a
 * production key, the sink, the clock, and `close`.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { type Registry, Watchlist } from "@osiris/core"
import { ApiKeys, Database, Host } from "@osiris/http"
import { Signature, Store } from "@osiris/webhooks"
import { Effect, Layer, ManagedRuntime, Random, Redacted } from "effect"
import { createServer as createNetServer } from "node:net"
import * as SandboxClock from "./SandboxClock.js"
import * as Template from "./Template.js"
import * as WebhookSink from "./WebhookSink.js"

/** Options of a sandbox host. */
export interface SandboxHostOptions {
  /**
   * The clock the host runs on (default: a clock frozen at `SandboxClock.EPOCH` that only `advance`
   * moves, so times in responses are the same on every run).
   */
  readonly clock?: SandboxClock.SandboxClock
  /** Seeds the host's randomness (ids, jitter); the same seed and requests give the same ids. Default 1. */
  readonly seed?: number
  /** Records for production keys' registry (default: none). */
  readonly productionRegistry?: ReadonlyArray<Registry.RegistryBusiness>
  /** The sandbox registry as a service (default: the fixture registry). */
  readonly sandboxRegistryLayer?: Layer.Layer<Registry.Registry>
}

/** A running sandbox host. */
export interface SandboxHost {
  /** `http://127.0.0.1:<port>`; also the host's `{base_url}`. */
  readonly baseUrl: string
  readonly sandboxKey: string
  readonly productionKey: string
  /** Registered for every sandbox event of the application the keys belong to. */
  readonly sink: WebhookSink.WebhookSink
  readonly clock: SandboxClock.SandboxClock
  readonly close: () => Promise<void>
}

/**
 * The OFAC screening index, shared by every sandbox host of the process and built at its first use
 * (the first search), so starting a host does not wait for it.
 */
let screener: ReturnType<typeof Watchlist.makeScreener> | undefined
const watchlist = Layer.succeed(Watchlist.WatchlistSource, {
  list: Watchlist.OFAC_SDN,
  screen: (queries) =>
    Effect.sync(() =>
      (screener ??= Watchlist.makeScreener(Watchlist.OFAC_SDN, Watchlist.ofacSdnEntries())).screen(queries)
    )
})

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createNetServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

/** Starts a sandbox host. */
export const startSandboxHost = async (options: SandboxHostOptions = {}): Promise<SandboxHost> => {
  // PGlite's WebAssembly compiles off the main thread while the rest is set up.
  Database.warmEmbedded()
  const database = Template.get()
  const clock = options.clock ?? SandboxClock.make({ frozen: true })
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const sink = await WebhookSink.start({ now: clock.now })
  const layer = Host.serve({ rateLimit: false }).pipe(
    Layer.provideMerge(Host.layerApi({
      baseUrl,
      ...(options.sandboxRegistryLayer === undefined ? {} : { sandboxRegistryLayer: options.sandboxRegistryLayer }),
      productionRegistry: options.productionRegistry ?? [],
      webhooks: { allowInsecure: true, poll: "20 millis" },
      watchlist
    })),
    Layer.provideMerge(Host.layerRepos),
    Layer.provideMerge(Database.layerEmbedded(undefined, { template: await database })),
    Layer.provideMerge(NodeHttpServer.layer(Host.nodeServer, { port, host: "127.0.0.1" })),
    Layer.provide(clock.layer),
    Layer.provide(Layer.setRandom(Random.make(options.seed ?? 1)))
  )
  const runtime = ManagedRuntime.make(layer)
  try {
    const keys = await runtime.runPromise(Effect.gen(function*() {
      const repo = yield* ApiKeys.ApiKeysRepo
      const webhooks = yield* Store.WebhookStore
      const app = yield* repo.ensureApplication("sandbox")
      const sandbox = yield* repo.create({ applicationId: app.id, environment: "SANDBOX", name: "sandbox", scopes: [] })
      const live = yield* repo.create({ applicationId: app.id, environment: "PRODUCTION", name: "live", scopes: [] })
      const secret = yield* Signature.newSecret
      yield* webhooks.createEndpoint({
        applicationId: app.id,
        environment: "SANDBOX",
        url: sink.url,
        description: "testkit sink",
        eventTypes: [],
        secret
      })
      return { sandbox: Redacted.value(sandbox.key), live: Redacted.value(live.key), secret }
    }))
    sink.setSecret(keys.secret)
    return {
      baseUrl,
      sandboxKey: keys.sandbox,
      productionKey: keys.live,
      sink,
      clock,
      close: async () => {
        await runtime.dispose()
        await sink.close()
      }
    }
  } catch (e) {
    await runtime.dispose()
    await sink.close()
    throw e
  }
}
