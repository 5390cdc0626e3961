import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { Ids, type Search } from "@osiris/core"
import { Backends } from "@osiris/testkit"
import { Effect, Layer, Option, Redacted, TestServices } from "effect"
import { ApiKeys, Host, Searches } from "../src/index.js"
import { pendingFor } from "./SearchFixtures.js"

const newSearch = Effect.gen(function*() {
  const ids = yield* Ids.Ids
  const id = yield* ids.next
  const request = { name: "Acme Widgets Inc", address: "123 N Main St, Springfield, IL 62701" }
  return { request, body: pendingFor(request, id) }
})

const live = <A, E, R>(e: Effect.Effect<A, E, R>) => TestServices.provideLive(e)

for (const backend of Backends.all()) {
  const Live = Host.layerRepos.pipe(Layer.provideMerge(backend.fresh()))

  describe(`searches as work items on ${backend.name}`, () => {
    layer(Live, { timeout: "60 seconds" })((it) => {
      const setup = (n: number) =>
        Effect.gen(function*() {
          const keys = yield* ApiKeys.ApiKeysRepo
          const repo = yield* Searches.SearchesRepo
          const app = yield* keys.ensureApplication(`app-${Math.random().toString(36).slice(2)}`)
          const created: Array<Search.Search> = []
          for (let i = 0; i < n; i++) {
            const s = yield* newSearch
            yield* repo.create({ applicationId: app.id, environment: "SANDBOX", request: s.request, body: s.body })
            created.push(s.body)
          }
          return { app, created, repo }
        })

      it.effect("hands every search to exactly one of several concurrent workers", () =>
        Effect.gen(function*() {
          const { app, created, repo } = yield* setup(60)
          const claimedBy = new Map<string, Array<string>>()
          const worker = (owner: string) =>
            Effect.gen(function*() {
              for (;;) {
                const batch = yield* repo.claim(owner, 30_000, 7)
                if (batch.length === 0) return
                for (const s of batch) {
                  claimedBy.set(s.id, [...(claimedBy.get(s.id) ?? []), owner])
                  const done = { ...s.body, state: "COMPLETED" as const }
                  expect(yield* repo.finish(s.id, owner, "COMPLETED", done)).toBe(true)
                }
              }
            })
          yield* Effect.all(["w1", "w2", "w3", "w4"].map(worker), { concurrency: "unbounded" })
          for (const s of created) expect(claimedBy.get(s.id)).toHaveLength(1)
          for (const s of created) {
            const stored = Option.getOrThrow(yield* repo.get(app.id, s.id))
            expect(stored.state).toBe("COMPLETED")
            expect(stored.body.id).toBe(s.id)
          }
        }))

      it.effect(
        "gives a search whose lease ran out to another worker, and refuses the old one's result",
        () =>
          Effect.gen(function*() {
            const { app, created, repo } = yield* setup(1)
            const first = yield* repo.claim("stalled", 200, 1000)
            expect(first.map((s) => s.id)).toContain(created[0]!.id)
            expect((yield* repo.claim("other", 200, 1000)).map((s) => s.id)).not.toContain(created[0]!.id)
            yield* live(Effect.sleep("400 millis"))
            const second = (yield* repo.claim("other", 30_000, 1000)).find((s) => s.id === created[0]!.id)!
            expect(second.attempts).toBe(2)
            expect(yield* repo.finish(created[0]!.id, "stalled", "COMPLETED", created[0]!)).toBe(false)
            expect(yield* repo.finish(created[0]!.id, "other", "FAILED", { ...created[0]!, state: "FAILED" })).toBe(
              true
            )
            expect(Option.getOrThrow(yield* repo.get(app.id, created[0]!.id)).state).toBe("FAILED")
          }),
        { timeout: 30_000 }
      )

      it.effect("cancels only PENDING or EXECUTING searches, and only the application's own", () =>
        Effect.gen(function*() {
          const { app, created, repo } = yield* setup(2)
          const cancelBody = (s: Search.Search) => ({ ...s, state: "CANCELLED" as const })
          const c = Option.getOrThrow(yield* repo.cancel(app.id, created[0]!.id, cancelBody))
          expect(c.cancelled).toBe(true)
          expect(c.search.state).toBe("CANCELLED")
          const again = Option.getOrThrow(yield* repo.cancel(app.id, created[0]!.id, cancelBody))
          expect(again.cancelled).toBe(false)
          expect(Option.isNone(yield* repo.cancel("0192f3a4-5b6c-7d8e-9f01-0000000000ff", created[1]!.id, cancelBody)))
            .toBe(true)
          expect(Option.isNone(yield* repo.get("0192f3a4-5b6c-7d8e-9f01-0000000000ff", created[1]!.id))).toBe(true)
          // A cancelled search is never claimed.
          const claimed = yield* repo.claim("w", 30_000, 100)
          expect(claimed.map((s) => s.id)).not.toContain(created[0]!.id)
        }))
    })

    if (backend.sameDatabase !== undefined) {
      const sameDatabase = backend.sameDatabase
      layer(Live, { timeout: "60 seconds" })((it) => {
        it.effect("shares the work between independent processes (separate connection pools)", () =>
          Effect.gen(function*() {
            const repo = yield* Searches.SearchesRepo
            const keys = yield* ApiKeys.ApiKeysRepo
            const app = yield* keys.ensureApplication("pools")
            for (let i = 0; i < 80; i++) {
              const s = yield* newSearch
              yield* repo.create({ applicationId: app.id, environment: "SANDBOX", request: s.request, body: s.body })
            }
            const url = Redacted.value((yield* PgClient.PgClient).config.url!)
            const process = (owner: string) =>
              Effect.gen(function*() {
                const r = yield* Searches.SearchesRepo
                const mine: Array<string> = []
                for (;;) {
                  const batch = yield* r.claim(owner, 30_000, 5)
                  if (batch.length === 0) return mine
                  for (const s of batch) {
                    mine.push(s.id)
                    yield* r.finish(s.id, owner, "COMPLETED", { ...s.body, state: "COMPLETED" })
                  }
                }
              }).pipe(Effect.provide(Host.layerRepos.pipe(Layer.provide(sameDatabase(url)))), Effect.scoped)
            const results = yield* Effect.all([process("p1"), process("p2"), process("p3")], {
              concurrency: "unbounded"
            })
            const all = results.flat()
            expect(all).toHaveLength(80)
            expect(new Set(all).size).toBe(80)
          }))
      })
    }
  })
}
