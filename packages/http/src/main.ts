/**
 * `npm start`: the reference host. PORT (default 8080), OSIRIS_BASE_URL (default
 * http://localhost:PORT), DATABASE_URL (PostgreSQL) or the embedded default under OSIRIS_DATA_DIR.
 * On an empty store it creates the application `demo` with one sandbox key and prints it once,
 * with a request that verifies a sandbox business.
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Sandbox } from "@osiris/core"
import { Config, Console, Effect, Layer, Option, Redacted } from "effect"
import { ApiKeysRepo, SCOPES } from "./ApiKeys/Repo.js"
import * as Host from "./Host.js"
import * as Providers from "./Orderables/Providers.js"
import { LeaseMillis } from "./Searches/Worker.js"
import * as Database from "./Storage/Database.js"

const port = Config.integer("PORT").pipe(
  Config.withDefault(8080),
  Config.withDescription("HTTP port (0: any free port)")
)
const baseUrlConfig = Config.string("OSIRIS_BASE_URL").pipe(
  Config.option,
  Config.withDescription("{base_url} in the URLs of resources (default http://localhost:PORT)")
)

const consoleUrlConfig = Config.string("OSIRIS_CONSOLE_URL").pipe(
  Config.option,
  Config.withDescription("{console_url} in the console links of resources (default {base_url}/console)")
)

const allowInsecure = Config.boolean("OSIRIS_WEBHOOK_ALLOW_INSECURE").pipe(
  Config.withDefault(false),
  Config.withDescription("Allow http:// and loopback webhook endpoints (local development and tests only)")
)

const leaseSeconds = Config.number("OSIRIS_LEASE_SECONDS").pipe(
  Config.withDefault(60),
  Config.withDescription("How long a claimed search stays with its process before another may take it over")
)

const pepListPath = Config.string("OSIRIS_PEP_LIST").pipe(
  Config.option,
  Config.withDescription("A PEP list (JSON Lines of {name, id?, aliases?, positions?}) for production PEP screening")
)

const requestLog = Config.boolean("OSIRIS_REQUEST_LOG").pipe(
  Config.withDefault(true),
  Config.withDescription("Log every request (method, path, status, time)")
)

const rateLimit = Config.all({
  perSecond: Config.number("OSIRIS_RATE_LIMIT").pipe(
    Config.withDefault(100),
    Config.withDescription("Requests per second per API key (per process); 0 turns the limit off")
  ),
  burst: Config.number("OSIRIS_RATE_BURST").pipe(
    Config.withDefault(200),
    Config.withDescription("Requests a key may make at once before the rate applies")
  )
})

const sandboxRegistry = Sandbox.registry()

/** A sandbox business the quick start's request verifies: active, in good standing, no watchlist hit. */
const quickStartBusiness = sandboxRegistry.find((r) =>
  r.watchlist_hits.length === 0 && r.registrations.length > 0 &&
  r.registrations.every((g) => g.status === "ACTIVE" && g.standing === "GOOD")
) ?? sandboxRegistry[0]!

/** Creates the demo application and its sandbox key on an empty store, and prints the key once. */
const bootstrap = (baseUrl: string) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeysRepo
    const app = yield* keys.ensureApplication("demo")
    const existing = yield* keys.list(app.id, "SANDBOX")
    const sample = quickStartBusiness
    const address = `${sample.addresses[0]!.street}, ${sample.addresses[0]!.city}, ${sample.addresses[0]!.state} ${
      sample.addresses[0]!.zip
    }`
    if (existing.length === 0) {
      const created = yield* keys.create({
        applicationId: app.id,
        environment: "SANDBOX",
        name: "demo",
        scopes: [...SCOPES]
      })
      const key = Redacted.value(created.key)
      yield* Console.log(`Created application "demo" with a sandbox API key (shown once):\n\n  ${key}\n`)
      yield* Console.log(
        `Try it:\n\n  curl -s -X POST ${baseUrl}/searches -H 'X-API-Key: ${key}' -H 'Content-Type: application/json' \\\n    -d '${
          JSON.stringify({ name: sample.name, address })
        }'\n`
      )
    } else {
      yield* Console.log(`Application "demo" has ${existing.length} sandbox key(s); create more with the keys API.`)
    }
  })

const main = Effect.gen(function*() {
  const p = yield* port
  const configured = yield* baseUrlConfig
  const insecure = yield* allowInsecure
  const consoleUrl = Option.map(yield* consoleUrlConfig, (u) => u.replace(/\/+$/, ""))
  const lease = yield* leaseSeconds
  const limit = yield* rateLimit
  const log = yield* requestLog
  const pepList = Option.map(yield* pepListPath, Providers.readPepList)
  const baseUrl = Option.getOrElse(configured, () => `http://localhost:${p}`).replace(/\/+$/, "")
  const server = NodeHttpServer.layer(Host.nodeServer, { port: p })
  const announce = Layer.effectDiscard(Effect.gen(function*() {
    yield* bootstrap(baseUrl)
    const address = yield* HttpServer.addressWith((a) => Effect.succeed(a))
    const listening = address._tag === "TcpAddress" ? address.port : p
    yield* Console.log(
      `Osiris listening on http://127.0.0.1:${listening} (base URL ${baseUrl}); API reference at ${baseUrl}/docs`
    )
  }))
  const storage = Host.layerRepos.pipe(Layer.provideMerge(Database.layerConfig))
  return Layer.mergeAll(
    Host.serve({ log, rateLimit: limit.perSecond > 0 ? limit : false }).pipe(
      Layer.provide(Host.layerApi({
        baseUrl,
        ...(Option.isSome(consoleUrl) ? { consoleUrl: consoleUrl.value } : {}),
        sandboxRegistry,
        webhooks: { allowInsecure: insecure },
        ...(Option.isSome(pepList) ? { pepList: pepList.value } : {})
      }))
    ),
    announce
  ).pipe(
    Layer.provide(server),
    Layer.provide(storage),
    Layer.provide(Layer.succeed(LeaseMillis, Math.max(1, lease) * 1000))
  )
})

Layer.launch(Layer.unwrapEffect(main)).pipe(NodeRuntime.runMain)
