/**
 * Webhooks end to end: a real host on an ephemeral port (embedded PostgreSQL, and the server at
 * DATABASE_URL when set), real receivers on loopback, signatures checked by `standardwebhooks`.
 * The host runs on a sandbox clock, so the retry schedule (5 s, 5 min, 30 min, ...) is walked by
 * moving the clock instead of waiting.
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Synthetic } from "@osiris/core"
import { ApiKeys, Database, Host } from "@osiris/http"
import { Dispatcher, Retry, Signature, Store } from "@osiris/webhooks"
import { Duration, Effect, Fiber, Layer, ManagedRuntime, Redacted } from "effect"
import { createServer } from "node:http"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SandboxClock, WebhookSink } from "../src/index.js"

const registry = Synthetic.registry(2026, 50)
const sample = registry[0]!
const sampleRequest = {
  name: sample.name,
  address: `${sample.addresses[0]!.street}, ${sample.addresses[0]!.city}, ${sample.addresses[0]!.state} ${
    sample.addresses[0]!.zip
  }`
}

const databases = () => {
  const out: Array<{ name: string; layer: () => Layer.Layer<any, unknown> }> = [
    { name: "embedded PGlite", layer: () => Database.layerEmbedded(undefined) }
  ]
  const url = process.env.DATABASE_URL
  if (url !== undefined && url !== "") out.push({ name: "PostgreSQL", layer: () => Database.layerScratch(url) })
  return out
}

/** A host on an ephemeral port with its clock, and calls against it. */
const startHost = async (
  database: () => Layer.Layer<any, unknown>,
  options: { readonly allowInsecure: boolean }
) => {
  const clock = SandboxClock.make({ frozen: false })
  const layer = Host.serve().pipe(
    Layer.provideMerge(Host.layerApi({
      baseUrl: "http://osiris.test",
      sandboxRegistry: registry,
      webhooks: { allowInsecure: options.allowInsecure, poll: "20 millis" }
    })),
    Layer.provideMerge(Host.layerRepos),
    Layer.provideMerge(database()),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(clock.layer)
  )
  const runtime = ManagedRuntime.make(layer)
  const base = await runtime.runPromise(
    HttpServer.addressWith((a) => Effect.succeed(a._tag === "TcpAddress" ? `http://127.0.0.1:${a.port}` : ""))
  )
  const newApp = async () =>
    runtime.runPromise(Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeysRepo
      const app = yield* keys.ensureApplication(`app-${Math.random().toString(36).slice(2)}`)
      const sandbox = yield* keys.create({ applicationId: app.id, environment: "SANDBOX", name: "t", scopes: [] })
      const live = yield* keys.create({ applicationId: app.id, environment: "PRODUCTION", name: "p", scopes: [] })
      return { app, key: Redacted.value(sandbox.key), live: Redacted.value(live.key) }
    }))
  const call = async (key: string, method: string, path: string, body?: unknown, headers = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: text === "" ? null : JSON.parse(text) }
  }
  return { runtime, base, clock, newApp, call }
}

/** Polls (real time) until `f` holds. */
const until = async (f: () => boolean | Promise<boolean>, what: string, timeoutMillis = 10_000) => {
  const deadline = Date.now() + timeoutMillis
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

for (const db of databases()) {
  describe(`webhooks end to end on ${db.name}`, () => {
    let host: Awaited<ReturnType<typeof startHost>>
    const sinks: Array<WebhookSink.WebhookSink> = []
    const sink = async (options: WebhookSink.WebhookSinkOptions = {}) => {
      const s = await WebhookSink.start(options)
      sinks.push(s)
      return s
    }
    /** An application with an endpoint for `sink` (all event types unless given). */
    const subscribed = async (s: WebhookSink.WebhookSink, eventTypes?: ReadonlyArray<string>) => {
      const app = await host.newApp()
      const created = await host.call(app.key, "POST", "/webhooks", {
        url: s.url,
        ...(eventTypes === undefined ? {} : { event_types: eventTypes })
      })
      expect(created.status).toBe(201)
      s.setSecret(created.body.secret)
      return { ...app, endpoint: created.body }
    }

    beforeAll(async () => {
      host = await startHost(db.layer, { allowInsecure: true })
    }, 60_000)
    afterAll(async () => {
      await Promise.all(sinks.map((s) => s.close()))
      await host.runtime.dispose()
    })

    it("creating an API key through the API sends APIKey.created, verified by standardwebhooks", async () => {
      const s = await sink()
      const app = await subscribed(s, ["APIKey.created", "APIKey.deleted"])
      expect(app.endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      const created = await host.call(app.key, "POST", "/api_keys", { name: "from the API" })
      expect(created.status).toBe(201)
      const d = await s.waitFor("APIKey.created", (d) => d.event?.data.id === created.body.id)
      // The sink verified with `standardwebhooks`; Osiris' own verifier agrees on the same bytes.
      expect(d.verified).toBe(true)
      expect(Signature.verify(app.endpoint.secret, d.headers as Record<string, string>, d.body)._tag).toBe("Right")
      expect(new Webhook(app.endpoint.secret).verify(d.body, d.headers as Record<string, string>)).toBeTruthy()
      expect(d.event).toMatchObject({
        type: "APIKey.created",
        data: { id: created.body.id, name: "from the API", environment: "SANDBOX", prefix: created.body.prefix }
      })
      // The key itself is never in an event.
      expect(d.body).not.toContain(created.body.key)
      expect(d.webhookId).toMatch(/^[0-9a-f-]{36}$/)
      // Revoking it sends APIKey.deleted; only the subscribed types came.
      expect((await host.call(app.key, "DELETE", `/api_keys/${created.body.id}`)).status).toBe(200)
      const deleted = await s.waitFor("APIKey.deleted", (d) => d.event?.data.id === created.body.id)
      expect(deleted.event!.data.revoked_at).not.toBeNull()
      expect(s.deliveries.every((x) => x.event?.type.startsWith("APIKey."))).toBe(true)
    })

    it("a completed search sends BusinessSearch.completed with the full search and the idempotency key", async () => {
      const s = await sink()
      const app = await subscribed(s)
      const res = await host.call(app.key, "POST", "/searches", sampleRequest, { "idempotency-key": "order-42" })
      expect(res.status).toBe(201)
      const d = await s.waitFor("BusinessSearch.completed", (d) => d.event?.data.id === res.body.id)
      const stored = await host.call(app.key, "GET", `/searches/${res.body.id}`)
      expect(d.event!.data).toEqual(stored.body)
      expect(d.event!.data.idempotency_key).toBe("order-42")
      expect(d.event!.data.state).toBe("COMPLETED")
      const submitted = await s.waitFor("BusinessSearch.submitted", (d) => d.event?.data.id === res.body.id)
      expect(submitted.event!.data.state).toBe("PENDING")
      expect(submitted.webhookId).not.toBe(d.webhookId)
    })

    it("a completed orderable sends <RecordType>.completed with its record, then BusinessSearch.updated", async () => {
      const s = await sink()
      const app = await subscribed(s, ["NAICSPredictionRequest.completed", "BusinessSearch.updated"])
      const res = await host.call(app.key, "POST", "/searches", {
        ...sampleRequest,
        options: ["Order.NaicsPrediction"]
      })
      expect(res.status).toBe(201)
      const orderable = res.body.orderables[0]
      const d = await s.waitFor("NAICSPredictionRequest.completed", (d) => d.event?.data.id === orderable.id)
      const record = await host.call(app.key, "GET", `/naics_prediction_requests/${orderable.id}`)
      expect(d.event!.data).toEqual(record.body)
      expect(d.event!.data).toMatchObject({ state: "COMPLETED", search_id: res.body.id })
      const updated = await s.waitFor("BusinessSearch.updated", (u) => u.event?.data.id === res.body.id)
      expect(updated.event!.data.orderables).toEqual(res.body.orderables)
    })

    it("after a secret rotation both the old and the new secret verify for 24 hours", async () => {
      const s = await sink()
      const app = await subscribed(s, ["APIKey.created"])
      const old = app.endpoint.secret
      const rotated = await host.call(app.key, "POST", `/webhooks/${app.endpoint.id}/rotate_secret`)
      expect(rotated.status).toBe(200)
      expect(rotated.body.secret).not.toBe(old)
      expect(rotated.body.previous_secret_expires_at).not.toBeNull()
      s.setSecret(rotated.body.secret)
      await host.call(app.key, "POST", "/api_keys", { name: "after rotation" })
      const d = await s.waitFor("APIKey.created")
      expect(d.signatures).toHaveLength(2)
      const headers = d.headers as Record<string, string>
      expect(new Webhook(old).verify(d.body, headers)).toBeTruthy()
      expect(new Webhook(rotated.body.secret).verify(d.body, headers)).toBeTruthy()
    })

    /** Waits until the endpoint's only delivery has `n` attempts recorded. */
    const recorded = (app: { key: string; endpoint: { id: string } }, n: number) =>
      until(async () => {
        const list = await host.call(app.key, "GET", `/webhooks/${app.endpoint.id}/deliveries`)
        return list.body.data[0]?.attempts === n
      }, `attempt ${n} to be recorded`)

    // From here on the host's clock moves: receivers check signatures against it.
    it("a receiver that fails three times gets the event on the fourth attempt, with the same webhook-id", async () => {
      const s = await sink({ now: host.clock.now })
      const app = await subscribed(s, ["APIKey.created"])
      s.failNext(3)
      const created = await host.call(app.key, "POST", "/api_keys", { name: "retried" })
      expect(created.status).toBe(201)
      await recorded(app, 1)
      // Each retry is due after its delay (+-10% jitter): move the clock past it once the attempt
      // before is recorded (its next attempt is scheduled from the time it was recorded).
      for (const [i, delay] of Retry.DELAYS.slice(0, 3).entries()) {
        host.clock.advance(Duration.times(delay, 1.11))
        await recorded(app, i + 2)
      }
      expect(s.deliveries.map((d) => d.answered)).toEqual([500, 500, 500, 204])
      expect(new Set(s.deliveries.map((d) => d.webhookId)).size).toBe(1)
      await until(
        async () =>
          (await host.call(app.key, "GET", `/webhooks/${app.endpoint.id}/deliveries`)).body.data[0]?.state ===
            "DELIVERED",
        "the delivery to be recorded"
      )
      const log = await host.call(app.key, "GET", `/webhooks/${app.endpoint.id}/deliveries`)
      expect(log.body.data).toHaveLength(1)
      expect(log.body.data[0]).toMatchObject({ event_type: "APIKey.created", attempts: 4, last_status: 204 })
      expect(log.body.data[0].attempt_log.map((a: { status: number }) => a.status)).toEqual([500, 500, 500, 204])
      expect(log.body.data[0].attempt_log[0].response).toBe("sink answered 500")
    })

    it("410 Gone disables the endpoint; later events are not queued for it", async () => {
      const s = await sink({ now: host.clock.now })
      const app = await subscribed(s, ["APIKey.created"])
      s.gone()
      await host.call(app.key, "POST", "/api_keys", { name: "first" })
      await until(async () => {
        const list = await host.call(app.key, "GET", "/webhooks")
        return list.body.data[0].disabled_at !== null
      }, "the endpoint to be disabled")
      const list = await host.call(app.key, "GET", "/webhooks")
      expect(list.body.data[0].disabled_reason).toContain("410")
      await host.call(app.key, "POST", "/api_keys", { name: "second" })
      const log = await host.call(app.key, "GET", `/webhooks/${app.endpoint.id}/deliveries`)
      expect(log.body.data.map((d: { state: string }) => d.state)).toEqual(["DISCARDED"])
      expect(s.deliveries).toHaveLength(1)
    })

    it("an exhausted delivery is kept and can be redelivered with the same webhook-id", async () => {
      const s = await sink({ now: host.clock.now })
      const app = await subscribed(s, ["APIKey.created"])
      s.failNext(1000, 503)
      await host.call(app.key, "POST", "/api_keys", { name: "doomed" })
      await recorded(app, 1)
      for (const [i, delay] of Retry.DELAYS.entries()) {
        host.clock.advance(Duration.times(delay, 1.11))
        await recorded(app, i + 2)
      }
      const deliveries = async () => (await host.call(app.key, "GET", `/webhooks/${app.endpoint.id}/deliveries`)).body
      await until(async () => (await deliveries()).data[0].state === "EXHAUSTED", "exhaustion")
      expect((await deliveries()).data[0].attempts).toBe(Retry.MAX_ATTEMPTS)
      s.reset()
      const eventId = (await deliveries()).data[0].event_id
      const redelivered = await host.call(app.key, "POST", `/events/${eventId}/redeliver`)
      expect(redelivered).toMatchObject({ status: 202, body: { event_id: eventId, deliveries: 1 } })
      const d = await s.waitFor("APIKey.created")
      expect(d.webhookId).toBe(eventId)
      expect(s.deliveries).toHaveLength(Retry.MAX_ATTEMPTS + 1)
    })

    it("endpoints are per application and environment, and need the webhooks:manage scope", async () => {
      const s = await sink({ now: host.clock.now })
      const app = await subscribed(s)
      const other = await host.newApp()
      const id = app.endpoint.id
      expect((await host.call(other.key, "GET", `/webhooks/${id}/deliveries`)).status).toBe(404)
      expect((await host.call(other.key, "DELETE", `/webhooks/${id}`)).status).toBe(404)
      expect((await host.call(app.live, "GET", `/webhooks/${id}/deliveries`)).status).toBe(403)
      expect((await host.call(app.live, "GET", "/webhooks")).body.data).toEqual([])
      const narrow = await host.call(app.key, "POST", "/api_keys", { name: "n", scopes: ["searches:read"] })
      expect((await host.call(narrow.body.key, "GET", "/webhooks")).status).toBe(403)
      expect((await host.call(app.key, "POST", "/webhooks", { url: s.url, event_types: ["Nope"] })).status).toBe(422)
      expect((await host.call(app.key, "POST", "/events/not-an-id/redeliver")).status).toBe(404)
      expect((await host.call(app.key, "DELETE", `/webhooks/${id}`)).status).toBe(204)
      expect((await host.call(app.key, "GET", "/webhooks")).body.data).toEqual([])
    })

    it("two delivery workers share the outbox; a worker that died holding deliveries loses none", async () => {
      const s = await sink({ now: host.clock.now })
      const app = await subscribed(s, ["BusinessSearch.updated"])
      const publish = (n: number) =>
        Effect.gen(function*() {
          const store = yield* Store.WebhookStore
          for (let i = 0; i < n; i++) {
            yield* store.publish({
              applicationId: app.app.id,
              environment: "SANDBOX",
              type: "BusinessSearch.updated",
              data: { n: i }
            })
          }
        })
      // A "dead" process claims 10 deliveries (in the transaction that made them, so no live worker
      // sees them first) and never records them.
      const dead = await host.runtime.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const store = yield* Store.WebhookStore
        return yield* sql.withTransaction(Effect.zipRight(publish(10), store.claim("dead-process", 60_000, 10)))
      }))
      expect(dead).toHaveLength(10)
      // A second worker beside the host's own.
      const second = host.runtime.runFork(
        Dispatcher.run({ owner: "second-worker", guard: { allowInsecure: true }, poll: "20 millis" })
      )
      await host.runtime.runPromise(publish(190))
      await until(() => s.received("BusinessSearch.updated").length >= 200 - dead.length, "the live deliveries")
      host.clock.advance("61 seconds")
      await until(() => new Set(s.received().map((d) => d.webhookId)).size === 200, "all 200 events", 20_000)
      await host.runtime.runPromise(Fiber.interrupt(second))
      const ids = s.received().map((d) => d.webhookId)
      expect(new Set(ids).size).toBe(200)
      expect(ids.length).toBe(200)
    })
  })
}

describe("webhook endpoints in strict mode (development mode off)", () => {
  let host: Awaited<ReturnType<typeof startHost>>
  beforeAll(async () => {
    host = await startHost(() => Database.layerEmbedded(undefined), { allowInsecure: false })
  }, 60_000)
  afterAll(() => host.runtime.dispose())

  it.each([
    "https://127.0.0.1/hook",
    "https://10.0.0.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://localhost/hook",
    "http://example.com/hook",
    "https://user:pass@example.com/hook",
    "https://example.com/hook\r\nX-Injected: 1",
    "https://example.com/a b"
  ])("refuses %s", async (url) => {
    const app = await host.newApp()
    const res = await host.call(app.key, "POST", "/webhooks", { url })
    expect(res.status).toBe(422)
    expect(res.body.detail[0]).toMatchObject({ type: "value_error", loc: ["body", "url"], input: url })
  })
})
