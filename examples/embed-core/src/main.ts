/**
 * Embedding the engine: a plain Effect program, no host. The registry is a JSONL file of contract
 * Business records; the engine runs with its default services (registry-backed TIN authority,
 * bundled OFAC SDN list, default scoring) over it. Usage:
 *
 *   npx tsx src/main.ts <businesses.jsonl> '<request JSON>'
 */
import { Engine, Formats, Registry, SearchRequest } from "@osiris/core"
import { Effect, Schema } from "effect"
import { readFileSync } from "node:fs"

const [registryFile, requestJson] = process.argv.slice(2)
if (registryFile === undefined || requestJson === undefined) {
  console.error("usage: main.ts <businesses.jsonl> '<request JSON>'")
  process.exit(2)
}

// The registry: one record per line; lenient decoding fills what a record leaves out.
const records = readFileSync(registryFile, "utf8").split("\n").filter((l) => l.trim() !== "").map((line, i) => {
  const decoded = Registry.decodeRecord(JSON.parse(line))
  if (decoded._tag === "Left") throw new Error(`line ${i + 1}: ${decoded.left}`)
  return decoded.right
})

const program = Effect.gen(function*() {
  const request = yield* Schema.decodeUnknown(SearchRequest.CreateSearchRequest)(JSON.parse(requestJson))
  const engine = yield* Engine.Engine
  const verification = yield* engine.verify({ request })
  const now = Formats.timestampFromMillis(Date.now())
  // The Search the host would answer, with ids and times this program chooses.
  return Engine.toSearch(verification, {
    id: "00000000-0000-7000-8000-000000000001" as Parameters<typeof Engine.toSearch>[1]["id"],
    created_at: now,
    updated_at: now,
    options: [],
    orderables: [],
    user: {
      id: "00000000-0000-7000-8000-000000000002" as Parameters<typeof Engine.toSearch>[1]["user"]["id"],
      first_name: "Embedded",
      last_name: "Example",
      email: ""
    },
    idempotency_key: null
  }, engine.config)
})

const search = await Effect.runPromise(
  program.pipe(
    Effect.provide(Engine.Engine.layerDefaults({ baseUrl: "http://localhost" }, Registry.Registry.layerMemory(records)))
  )
)
console.log(JSON.stringify(search))
