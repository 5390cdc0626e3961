/**
 * A search that takes longer than the caller's budget (DECISIONS sections 1 and 2): a registry
 * that answers slowly for names containing "Slowpoke" stands in for a slow provider.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Registry, Synthetic } from "@osiris/core"
import { Effect, Layer } from "effect"
import { backends } from "./Backends.js"
import { client, serverFor } from "./Support.js"

const records = [
  ...Synthetic.registry(93, 30),
  { ...Synthetic.registry(94, 1)[0]!, name: "Slowpoke Logistics LLC" }
]
const slow = records[records.length - 1]!
const body = JSON.stringify({
  name: slow.name,
  address: `${slow.addresses[0]!.street}, ${slow.addresses[0]!.city}, ${slow.addresses[0]!.state} ${
    slow.addresses[0]!.zip
  }`
})

/** The memory registry, taking 2.5 s to answer for "Slowpoke" names. */
const slowRegistry = Layer.effect(
  Registry.Registry,
  Effect.map(Registry.Registry, (inner) => ({
    ...inner,
    search: (query, options) =>
      query.names.some((n) => n.tokens.includes("slowpoke"))
        ? Effect.zipRight(Effect.sleep("2500 millis"), inner.search(query, options))
        : inner.search(query, options)
  }))
).pipe(Layer.provide(Registry.Registry.layerMemory(records)))

const post = (base: string, key: string, headers: Record<string, string>) =>
  Effect.promise(async () => {
    const r = await fetch(`${base}/searches`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key, ...headers },
      body
    })
    return { status: r.status, headers: r.headers, body: (await r.json()) as any }
  })

describe("searches slower than the budget", () => {
  layer(serverFor(backends()[0]!, records, undefined, {}, { sandboxRegistryLayer: slowRegistry }), {
    timeout: "60 seconds",
    excludeTestServices: true
  })((it) => {
    it.effect("wait=1 gets a 202 with the search as it stands; the work goes on and completes", () =>
      Effect.gen(function*() {
        const { base, key } = yield* client
        const started = Date.now()
        const r = yield* post(base, key, { prefer: "wait=1" })
        expect(Date.now() - started).toBeLessThan(2400)
        expect(r.status).toBe(202)
        expect(["PENDING", "EXECUTING"]).toContain(r.body.state)
        expect(r.headers.get("preference-applied")).toBe("wait=1")
        expect(r.headers.get("retry-after")).toBe("1")
        expect(r.headers.get("location")).toBe(r.body.url)
        yield* Effect.sleep("3 seconds")
        const done = yield* Effect.promise(async () =>
          (await fetch(`${base}/searches/${r.body.id}`, { headers: { "x-api-key": key } })).json() as Promise<any>
        )
        expect(done.state).toBe("COMPLETED")
        expect(done.business.id).toBe(slow.id)
      }))

    it.effect("a replay while the first runs: async gets the 202 at once, sync waits for the result", () =>
      Effect.gen(function*() {
        const { base, key } = yield* client
        const first = yield* post(base, key, { prefer: "respond-async", "idempotency-key": "slow-1" })
        expect(first.status).toBe(202)
        const asyncReplay = yield* post(base, key, { prefer: "respond-async", "idempotency-key": "slow-1" })
        expect(asyncReplay.status).toBe(202)
        expect(asyncReplay.headers.get("idempotent-replayed")).toBe("true")
        expect(asyncReplay.body.id).toBe(first.body.id)
        const syncReplay = yield* post(base, key, { prefer: "wait=10", "idempotency-key": "slow-1" })
        expect(syncReplay.status).toBe(201)
        expect(syncReplay.body).toMatchObject({ id: first.body.id, state: "COMPLETED" })
        expect(syncReplay.headers.get("idempotent-replayed")).toBe("true")
      }))
  })
})
