/**
 * A search that takes longer than the caller's budget (DECISIONS sections 1 and 2): the sandbox's
 * magic "Slowpoke" names take `Sandbox.SLOW_SEARCH` (3 s), standing in for a slow provider.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Backends, Fixtures, TestHost } from "@osiris/testkit"
import { Effect } from "effect"

const slow = Fixtures.byName("Cyphorus Reg Company")!
const body = JSON.stringify({ name: `Slowpoke ${slow.name}`, address: slow.address })

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
  layer(
    TestHost.layer(Backends.embedded),
    {
      timeout: "60 seconds",
      excludeTestServices: true
    }
  )((it) => {
    it.effect("wait=1 gets a 202 with the search as it stands; the work goes on and completes", () =>
      Effect.gen(function*() {
        const { base, key } = yield* TestHost.client
        const started = Date.now()
        const r = yield* post(base, key, { prefer: "wait=1" })
        expect(Date.now() - started).toBeLessThan(2800)
        expect(r.status).toBe(202)
        expect(["PENDING", "EXECUTING"]).toContain(r.body.state)
        expect(r.headers.get("preference-applied")).toBe("wait=1")
        expect(r.headers.get("retry-after")).toBe("1")
        expect(r.headers.get("location")).toBe(r.body.url)
        const done = yield* Effect.promise(async () => {
          for (;;) {
            const s = await (await fetch(`${base}/searches/${r.body.id}`, { headers: { "x-api-key": key } }))
              .json() as any
            if (s.state !== "PENDING" && s.state !== "EXECUTING") return s
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
        })
        expect(done.state).toBe("COMPLETED")
        expect(done.business.id).toBe(slow.id)
      }))

    it.effect("a replay while the first runs: async gets the 202 at once, sync waits for the result", () =>
      Effect.gen(function*() {
        const { base, key } = yield* TestHost.client
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
