/**
 * The production registry in the database: import (streaming, idempotent on id, refused lines
 * reported) and retrieval on the database's indexes with the same results as the memory index.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Engine, Registry, Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect, Stream } from "effect"
import { RegistryDatabase } from "../src/index.js"

const records = Synthetic.registry(61, 400)
const lines = [
  ...records.map((r) => JSON.stringify(r)),
  "not json",
  "{\"name\": \"no id\"}"
]

const engineOn = (registry: typeof RegistryDatabase.layer | ReturnType<typeof Registry.Registry.layerMemory>) =>
  Effect.provide(Engine.Engine, Engine.Engine.layerDefaults({ baseUrl: TestHost.BASE_URL }, registry))

for (const backend of Backends.all()) {
  describe(`database registry on ${backend.name}`, () => {
    layer(TestHost.layer(backend, { sandboxRegistry: Synthetic.registry(62, 20) }), { timeout: "120 seconds" })(
      (it) => {
        it.effect("imports idempotently, reports refused lines, and retrieves what the memory index retrieves", () =>
          Effect.gen(function*() {
            const progress: Array<number> = []
            const first = yield* RegistryDatabase.importLines(Stream.fromIterable(lines), {
              batch: 150,
              progress: (n) => Effect.sync(() => void progress.push(n))
            })
            expect(first.imported).toBe(400)
            expect(first.rejected.map((r) => r.line)).toEqual([401, 402])
            expect(progress).toEqual([150, 300, 400])
            // Again, with one record renamed: same count, the new name wins.
            const renamed = { ...records[0]!, name: "Renamed Holdings Company" }
            yield* RegistryDatabase.importLines(Stream.fromIterable([...lines.slice(1, 400), JSON.stringify(renamed)]))
            const sql = yield* SqlClient.SqlClient
            const n = yield* sql<{ n: number }>`select count(*)::int as n from registry_businesses`
            expect(n[0]!.n).toBe(400)

            const stored = [renamed, ...records.slice(1)]
            const db = yield* engineOn(RegistryDatabase.layer)
            const memory = yield* engineOn(Registry.Registry.layerMemory(stored))
            const random = Synthetic.prng(9)
            for (let i = 0; i < 120; i++) {
              const target = stored[Math.floor(random.next() * stored.length)]!
              const request = Synthetic.requestFor(random, target)
              const [a, b] = [yield* db.verify({ request }), yield* memory.verify({ request })]
              const view = (v: typeof a) => ({
                state: v.state,
                business: v.business?.id ?? null,
                name: v.business_name_match,
                address: v.business_address_match,
                tin: v.tin_matched
              })
              expect(view(a)).toEqual(view(b))
            }
            expect((yield* db.business(renamed.id))?.name).toBe("Renamed Holdings Company")
          }))

        it.effect("production keys search the imported registry through the API", () =>
          Effect.gen(function*() {
            const { base, live } = yield* TestHost.client
            const target = records[42]!
            const a = target.addresses[0]!
            const r = yield* Effect.promise(async () => {
              const res = await fetch(`${base}/searches`, {
                method: "POST",
                headers: { "x-api-key": live, "content-type": "application/json" },
                body: JSON.stringify({ name: target.name, address: `${a.street}, ${a.city}, ${a.state} ${a.zip}` })
              })
              return (await res.json()) as { state: string; business: { id: string } | null }
            })
            expect(r.state).toBe("COMPLETED")
            expect(r.business?.id).toBe(target.id)
          }))
      }
    )
  })
}
