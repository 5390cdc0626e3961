import { describe, expect, layer } from "@effect/vitest"
import { Ids, type Search, Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect, Option } from "effect"
import { Searches } from "../src/index.js"
import { pendingFor } from "./SearchFixtures.js"

const registry = Synthetic.registry(91, 200)
const target = registry[7]!
const body = JSON.stringify({
  name: target.name,
  address: `${target.addresses[0]!.street}, ${target.addresses[0]!.city}, ${target.addresses[0]!.state} ${
    target.addresses[0]!.zip
  }`
})

for (const backend of Backends.all()) {
  const Server = TestHost.layer(backend, { sandboxRegistry: registry })

  describe(`execution on ${backend.name}`, () => {
    layer(Server, { timeout: "60 seconds", excludeTestServices: true })((it) => {
      const setup = TestHost.client
      const post = (base: string, key: string, headers: Record<string, string>) =>
        Effect.promise(() =>
          fetch(`${base}/searches`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": key, ...headers },
            body
          })
        )
      const waitFor = (base: string, key: string, id: string) =>
        Effect.gen(function*() {
          for (let i = 0; i < 200; i++) {
            const r = yield* Effect.promise(() =>
              fetch(`${base}/searches/${id}/status`, { headers: { "x-api-key": key } })
            )
            const s = (yield* Effect.promise(() => r.json())) as { state: string }
            if (s.state === "COMPLETED" || s.state === "FAILED") return s.state
            yield* Effect.sleep("50 millis")
          }
          return "TIMEOUT"
        })

      it.effect("Prefer: respond-async answers 202 at once and the search completes in the background", () =>
        Effect.gen(function*() {
          const { base, key } = yield* setup
          const r = yield* post(base, key, { prefer: "respond-async" })
          expect(r.status).toBe(202)
          expect(r.headers.get("preference-applied")).toBe("respond-async")
          expect(r.headers.get("retry-after")).toBe("1")
          const s = (yield* Effect.promise(() => r.json())) as Search.Search
          expect(["PENDING", "EXECUTING"]).toContain(s.state)
          expect(r.headers.get("location")).toBe(s.url)
          expect(yield* waitFor(base, key, s.id)).toBe("COMPLETED")
        }))

      it.effect("Prefer: wait=N finishes within the budget as 201; unknown tokens are ignored", () =>
        Effect.gen(function*() {
          const { base, key } = yield* setup
          const r = yield* post(base, key, { prefer: "wait=5" })
          expect(r.status).toBe(201)
          expect(r.headers.get("preference-applied")).toBe("wait=5")
          const clamped = yield* post(base, key, { prefer: "wait=999, handling=lenient" })
          expect(clamped.status).toBe(201)
          expect(clamped.headers.get("preference-applied")).toBe("wait=90")
          const odd = yield* post(base, key, { prefer: "frobnicate" })
          expect(odd.status).toBe(201)
          expect(odd.headers.get("preference-applied")).toBeNull()
        }))

      it.effect("a search left mid-way by a dead process is taken over and completed", () =>
        Effect.gen(function*() {
          const { app, base, key } = yield* setup
          const repo = yield* Searches.SearchesRepo
          const id = yield* (yield* Ids.Ids).next
          const request = JSON.parse(body)
          yield* repo.create({
            applicationId: app.id,
            environment: "SANDBOX",
            request,
            body: pendingFor(request, id)
          })
          // A process claims it with a short lease and dies without finishing.
          const dead = yield* repo.claimById(id, "dead-process", 300)
          expect(Option.isSome(dead)).toBe(true)
          expect(yield* waitFor(base, key, id)).toBe("COMPLETED")
          const stored = Option.getOrThrow(yield* repo.get(app.id, id))
          expect(stored.attempts).toBe(2)
        }))
    })
  })
}
