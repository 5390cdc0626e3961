/**
 * Webhook delivery throughput: events per second from the outbox to a 2xx at a local receiver.
 *
 * N events are published (one delivery each) to an endpoint on a loopback receiver that answers
 * 204; then the delivery worker(s) start and the clock runs until every delivery is recorded
 * DELIVERED in the database. Side by side, a baseline sends the same signed bodies to the same
 * receiver with the same keep-alive pool and concurrency but no database at all; the figure that
 * matters is the ratio (the machine is shared and noisy). Storage: the PostgreSQL server at
 * DATABASE_URL (a scratch database) when set, else the embedded default.
 *
 *   npm run bench:webhooks -- --events 20000 [--no-write]
 */
import { SqlClient } from "@effect/sql"
import { Dispatcher, Sender, Signature, Store } from "@osiris/webhooks"
import { Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { writeSection } from "../../core/eval/Docs.js"
import { ApiKeys, Database, Host } from "../src/index.js"

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const EVENTS = Number(arg("--events") ?? "20000")
const CAPACITY = 256
const guard = { allowInsecure: true }

const receiver = await new Promise<{ url: string; answered: () => number; close: () => void }>((resolve) => {
  let answered = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      answered++
      res.writeHead(204).end()
    })
  })
  server.listen(0, "127.0.0.1", () =>
    resolve({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
      answered: () => answered,
      close: () => {
        server.closeAllConnections()
        server.close()
      }
    }))
})

const url = process.env.DATABASE_URL
const storage = url !== undefined && url !== ""
  ? { name: "PostgreSQL (DATABASE_URL)", layer: Database.layerScratch(url) }
  : { name: "embedded PGlite", layer: Database.layerEmbedded(undefined) }

const payload = (i: number) => ({ id: `bench-${i}`, state: "COMPLETED", padding: "x".repeat(2000) })

/** The baseline: the same signed POSTs, same pool and concurrency, no database. */
const baseline = async (n: number) => {
  const agents = Sender.makeAgents(guard, 64)
  const secret = Effect.runSync(Signature.newSecret)
  const started = performance.now()
  let next = 0
  const lane = async () => {
    while (next < n) {
      const i = next++
      const body = JSON.stringify({
        type: "BusinessSearch.updated",
        timestamp: "2026-01-01T00:00:00.000000",
        data: payload(i)
      })
      const headers = Signature.headersFor([secret], `evt-${i}`, Math.floor(Date.now() / 1000), body)
      const r = await Effect.runPromise(Sender.post({ url: receiver.url, headers, body, guard, agents }))
      if (r.status !== 204) throw new Error(`baseline got ${r.status} ${r.error}`)
    }
  }
  await Promise.all(Array.from({ length: CAPACITY }, lane))
  return n / ((performance.now() - started) / 1000)
}

/** Osiris: publish n events, then time the workers until every delivery is recorded DELIVERED. */
const osiris = async (n: number, workers: number) => {
  const runtime = ManagedRuntime.make(Host.layerRepos.pipe(Layer.provideMerge(storage.layer)))
  try {
    const setup = await runtime.runPromise(Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeysRepo
      const store = yield* Store.WebhookStore
      const app = yield* keys.ensureApplication(`bench-${Date.now()}`)
      yield* store.createEndpoint({
        applicationId: app.id,
        environment: "SANDBOX",
        url: receiver.url,
        description: null,
        eventTypes: [],
        secret: yield* Signature.newSecret
      })
      return app
    }))
    await runtime.runPromise(Effect.gen(function*() {
      const store = yield* Store.WebhookStore
      const sql = yield* SqlClient.SqlClient
      for (let i = 0; i < n; i += 500) {
        yield* sql.withTransaction(Effect.forEach(
          Array.from({ length: Math.min(500, n - i) }, (_, k) => i + k),
          (k) =>
            store.publish({
              applicationId: setup.id,
              environment: "SANDBOX",
              type: "BusinessSearch.updated",
              data: payload(k)
            }),
          { discard: true }
        ))
      }
    }))
    const before = receiver.answered()
    const started = performance.now()
    const fibers = Array.from(
      { length: workers },
      (_, w) => runtime.runFork(Dispatcher.run({ owner: `bench-${w}`, guard, capacity: CAPACITY, poll: "10 millis" }))
    )
    let firstAll = 0
    for (;;) {
      if (firstAll === 0 && receiver.answered() - before >= n) firstAll = performance.now()
      const pending = await runtime.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<
          { n: number }
        >`select count(*)::int as n from webhook_deliveries where state = 'PENDING'`
        return rows[0]!.n
      }))
      if (pending === 0) break
      await new Promise((r) => setTimeout(r, 20))
    }
    const done = performance.now()
    await runtime.runPromise(Effect.forEach(fibers, Fiber.interrupt))
    return {
      to2xx: n / (((firstAll || done) - started) / 1000),
      recorded: n / ((done - started) / 1000)
    }
  } finally {
    await runtime.dispose()
  }
}

const fmt = (x: number) => Math.round(x).toLocaleString("en-US")
console.log(`webhook delivery: ${fmt(EVENTS)} events, storage ${storage.name}, ${CAPACITY} in flight per worker`)
// Warm up the receiver, the pool and the JIT.
await baseline(Math.min(2000, EVENTS))
const rows: Array<string> = []
for (const workers of [1, 2]) {
  const base = await baseline(EVENTS)
  const o = await osiris(EVENTS, workers)
  const line = `| ${workers} | ${fmt(o.to2xx)} | ${fmt(o.recorded)} | ${fmt(base)} | ${
    (o.recorded / base).toFixed(2)
  } |`
  console.log(line)
  rows.push(line)
}
receiver.close()
const table = [
  `Events: ${fmt(EVENTS)}; storage: ${storage.name}; receiver on loopback answering 204; ${
    new Date().toISOString().slice(0, 10)
  }.`,
  "",
  "| workers | events/s to last 2xx | events/s all recorded | baseline (no database) events/s | ratio |",
  "|---:|---:|---:|---:|---:|",
  ...rows
].join("\n")
console.log(table)
if (!process.argv.includes("--no-write")) writeSection("PERFORMANCE.md", "bench:webhooks", table)
