/**
 * `npm run bench:http`: the host's HTTP throughput and latency against a raw baseline, both backed by
 * the PostgreSQL at DATABASE_URL (default the machine's, 127.0.0.1:5432), in a database made for the
 * run. The load generator is `autocannon` (50 connections, `BENCH_SECONDS` per scenario, default 10).
 * Scenarios, each beside its baseline (run alternately, so both see the same machine):
 *   synchronous POST /searches (sandbox registry)  vs  bare node:http + JSON parse + one insert
 *   asynchronous create (Prefer: respond-async)      vs  the same insert baseline
 *   GET /searches/{id}                               vs  bare node:http + one select by id
 *   idempotent replays (one Idempotency-Key)         vs  the select baseline
 * Then the host's resident memory before and after `BENCH_SEARCHES` (default 100,000) synchronous
 * searches. Prints the table and writes it into docs/PERFORMANCE.md (`--no-write` to skip).
 */
import { Sandbox } from "@osiris/core"
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { writeSection } from "../../core/eval/Docs.js"
import { ROOT, scratch, startHost } from "../ops/Hosts.js"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 100_000)
const CONNECTIONS = 50

const rss = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return m === null ? 0 : Number(m[1]) / 1024
}

const startBaseline = (databaseUrl: string) =>
  new Promise<{ base: string; kill: () => void }>((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", "packages/http/bench/baseline.ts"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "inherit"]
    })
    proc.stdout!.on("data", (d: Buffer) => {
      const m = /listening on (\S+)/.exec(d.toString())
      if (m !== null) resolve({ base: m[1]!, kill: () => proc.kill() })
    })
    proc.on("exit", (code) => reject(new Error(`baseline exited ${code}`)))
  })

interface Figures {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly non2xx: number
}

const load = (options: autocannon.Options) =>
  new Promise<Figures>((resolve, reject) => {
    // A run is either timed (duration) or counted (amount).
    const timing = options.amount === undefined ? { duration: SECONDS } : {}
    autocannon({ connections: CONNECTIONS, ...timing, ...options }, (err, r) => {
      if (err) return reject(err)
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx })
    })
  })

const main = async () => {
  const db = await scratch()
  const host = await startHost(db.url, { OSIRIS_REQUEST_LOG: "false", OSIRIS_RATE_LIMIT: "0" })
  const baseline = await startBaseline(db.url)
  const keys = await db.newKeys("bench")
  const sample = Sandbox.registry()[0]!
  const body = JSON.stringify({ name: sample.name, address: sample.address ?? "" })
  const headers = { "x-api-key": keys.sandbox, "content-type": "application/json" }
  const post = (h: Record<string, string> = {}) => ({
    url: `${host.base}/searches`,
    method: "POST" as const,
    headers: { ...headers, ...h },
    body
  })

  // Ids to read: searches made through the API, rows made through the baseline.
  const searchIds: Array<string> = []
  const rowIds: Array<string> = []
  for (let i = 0; i < 200; i++) {
    const s = await fetch(`${host.base}/searches`, { method: "POST", headers, body })
    searchIds.push(((await s.json()) as { id: string }).id)
    const r = await fetch(`${baseline.base}/rows`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body
    })
    rowIds.push(((await r.json()) as { id: string }).id)
  }
  await fetch(`${host.base}/searches`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": "bench-replay" },
    body
  })
  let k = 0
  const reads = (base: string, ids: Array<string>, prefix: string) => ({
    url: base,
    requests: [{
      method: "GET" as const,
      setupRequest: (req: any) => ({ ...req, path: `${prefix}${ids[k++ % ids.length]}` })
    }]
  })
  const insertBaseline = () =>
    load({ url: `${baseline.base}/rows`, method: "POST", headers: { "content-type": "application/json" }, body })
  const selectBaseline = () => load(reads(baseline.base, rowIds, "/rows/"))

  const scenarios: Array<
    { name: string; target?: number; host: () => Promise<Figures>; baseline: () => Promise<Figures> }
  > = [
    { name: "synchronous `POST /searches`", target: 0.5, host: () => load(post()), baseline: insertBaseline },
    {
      name: "asynchronous create (`Prefer: respond-async`)",
      host: () => load(post({ prefer: "respond-async" })),
      baseline: insertBaseline
    },
    {
      name: "`GET /searches/{id}`",
      target: 0.6,
      host: () => load({ ...reads(host.base, searchIds, "/searches/"), headers }),
      baseline: selectBaseline
    },
    {
      name: "idempotent replay (`Idempotency-Key`)",
      host: () => load(post({ "idempotency-key": "bench-replay" })),
      baseline: selectBaseline
    }
  ]
  const rows: Array<string> = []
  const warm = await load({ ...post(), duration: 3 })
  void warm
  for (const s of scenarios) {
    const b = await s.baseline()
    const h = await s.host()
    const ratio = h.rps / b.rps
    const verdict = s.target === undefined ? "" : ratio >= s.target ? `≥ ${s.target}: holds` : `≥ ${s.target}: misses`
    rows.push(
      `| ${s.name} | ${h.rps.toFixed(0)} | ${h.p50} | ${h.p99} | ${b.rps.toFixed(0)} | ${b.p50} | ${b.p99} | ${
        ratio.toFixed(2)
      } ${verdict} | ${h.errors + h.non2xx} |`
    )
    console.log(rows[rows.length - 1])
  }

  // Memory: resident size of the host process before and after many searches.
  const before = rss(host.pid)
  const half = Math.floor(SEARCHES / 2)
  await load({ ...post(), amount: half })
  const middle = rss(host.pid)
  await load({ ...post(), amount: SEARCHES - half })
  const after = rss(host.pid)

  baseline.kill()
  host.proc.kill("SIGTERM")
  await host.exited
  await db.dispose()

  const table = [
    `${
      new Date().toISOString().slice(0, 10)
    }, ${CONNECTIONS} connections, ${SECONDS} s per scenario, PostgreSQL at 127.0.0.1, 2 cores shared by host, baseline, database and load generator (\`npm run bench:http\`)`,
    "",
    "| scenario | host req/s | p50 ms | p99 ms | baseline req/s | p50 ms | p99 ms | host / baseline | host errors |",
    "|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ...rows,
    "",
    `Host resident memory: ${before.toFixed(0)} MiB before, ${middle.toFixed(0)} MiB after ${
      half.toLocaleString("en")
    } searches, ${after.toFixed(0)} MiB after ${SEARCHES.toLocaleString("en")}.`
  ].join("\n")
  console.log(table)
  if (!process.argv.includes("--no-write")) writeSection("PERFORMANCE.md", "bench:http", table)
  process.exit(0)
}

await main()
