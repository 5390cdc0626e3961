/**
 * Running the reference host as an operator would: start `npm start`'s program against PostgreSQL
 * (DATABASE_URL; the embedded default when unset), create a key with the `osiris` command, register
 * a webhook receiver, run a search with plain HTTP calls (what `curl` would send), and read the
 * `BusinessSearch.completed` webhook. Prints each step. Usage: `npx tsx src/run.ts`.
 */
import { Sandbox } from "@osiris/core"
import { WebhookSink } from "@osiris/testkit"
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const root = join(import.meta.dirname, "..", "..", "..")
const env = {
  ...process.env,
  PORT: "0",
  // Local receivers are on loopback over http: development mode for webhooks.
  OSIRIS_WEBHOOK_ALLOW_INSECURE: "true",
  // The embedded default keeps its files here when no DATABASE_URL is given.
  OSIRIS_DATA_DIR: process.env.OSIRIS_DATA_DIR ?? mkdtempSync(join(tmpdir(), "osiris-run-host-"))
}

/** Step 1: a key, printed once by the command line. */
const created = spawnSync(process.execPath, [
  join(root, "packages/http/bin/osiris.mjs"),
  "keys",
  "create",
  "--app",
  "run-host-example",
  "--environment",
  "sandbox",
  "--json"
], { env, encoding: "utf8" })
if (created.status !== 0) throw new Error(created.stderr)
const { key } = JSON.parse(created.stdout.trim().split("\n").pop()!) as { key: string }
console.log("1. created a sandbox key")

/** Step 2: the host. */
const host = spawn(process.execPath, [join(root, "packages/http/bin/host.mjs")], {
  env,
  stdio: ["ignore", "pipe", "pipe"]
})
const base = await new Promise<string>((resolve, reject) => {
  let out = ""
  host.stdout.on("data", (d: Buffer) => {
    out += d.toString()
    const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
    if (m !== null) resolve(m[1]!)
  })
  host.on("exit", (code) => reject(new Error(`the host exited (${code}): ${out}`)))
})
console.log(`2. the host listens on ${base}`)

try {
  /** Step 3: a receiver, registered as a webhook endpoint. */
  const sink = await WebhookSink.start()
  const endpoint = await (await fetch(`${base}/webhooks`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ url: sink.url, event_types: ["BusinessSearch.completed"] })
  })).json() as { id: string; secret: string }
  sink.setSecret(endpoint.secret)
  console.log(`3. registered the webhook endpoint ${endpoint.id}`)

  /** Step 4: a search, as curl would send it. */
  const b = Sandbox.registry()[1]!
  const a = b.addresses[0]!
  const res = await fetch(`${base}/searches`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ name: b.name, address: `${a.street}, ${a.city}, ${a.state} ${a.zip}` })
  })
  const search = await res.json() as { id: string; state: string; verified: boolean }
  console.log(`4. POST /searches -> ${res.status} ${search.state}, verified ${search.verified}`)

  /** Step 5: the webhook. */
  const delivery = await sink.waitFor("BusinessSearch.completed", (d) => d.event?.data.id === search.id, 20_000)
  console.log(`5. webhook ${delivery.event!.type} ${delivery.webhookId}, signature verified: ${delivery.verified}`)
  await sink.close()
} finally {
  host.kill("SIGTERM")
}
