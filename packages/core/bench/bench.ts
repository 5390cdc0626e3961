/**
 * `npm run bench`: the matching engine on deterministic synthetic registries of 10k, 100k and 1M
 * businesses (`--sizes 10000,100000` to choose): index build time, heap per record, verify latency
 * p50/p99 on one core (with OFAC screening), and watchlist screening latency per name. Each latency
 * is printed beside a baseline measured in the same loop (normalising the same request or name),
 * as a ratio, because the machine is shared and noisy. Writes docs/PERFORMANCE.md unless --no-write.
 */
import { ManagedRuntime } from "effect"
import { writeSection } from "../eval/Docs.js"
import * as BusinessName from "../src/BusinessName.js"
import { Engine, prepareRequest } from "../src/Engine.js"
import { layerFromIndex, makeMemoryIndex } from "../src/Registry.js"
import type { NameAddressForm } from "../src/SearchRequest.js"
import * as Synthetic from "../src/Synthetic.js"
import * as UsAddress from "../src/UsAddress.js"
import * as Watchlist from "../src/Watchlist.js"

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const sizes = (arg("--sizes") ?? "10000,100000,1000000").split(",").map(Number)
const SEED = 2026
const QUERIES = 3000

const gc = () => (globalThis as { gc?: () => void }).gc?.()
const heap = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}
const pct = (xs: Array<number>, p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}
const ms = (n: number) => n.toFixed(3)

interface SizeRow {
  size: number
  build: number
  heapPerRecord: number
  keys: number
  p50: number
  p99: number
  baseP50: number
  found: number
  touchedShare: number
}

const benchSize = async (size: number): Promise<SizeRow> => {
  const before = heap()
  const records = Synthetic.registry(SEED, size)
  const t0 = performance.now()
  const index = makeMemoryIndex(records)
  const build = (performance.now() - t0) / 1000
  const heapPerRecord = (heap() - before) / size
  const runtime = ManagedRuntime.make(Engine.layerDefaults({ baseUrl: "http://bench" }, layerFromIndex(index)))
  const engine = await runtime.runPromise(Engine)
  const random = Synthetic.prng(SEED + size)
  const requests: Array<{ request: NameAddressForm; expected: string | null }> = []
  for (let i = 0; i < QUERIES; i++) {
    if (i % 10 === 9) {
      const stranger = Synthetic.business(SEED + 1, i)
      requests.push({ request: Synthetic.requestFor(random, stranger), expected: null })
    } else {
      const target = records[random.int(0, size - 1)]!
      requests.push({ request: Synthetic.requestFor(random, target), expected: target.id })
    }
  }
  const verify = (request: NameAddressForm) => runtime.runSync(engine.verify({ request }))
  const normalise = (request: NameAddressForm) => {
    UsAddress.parse(request.address)
    BusinessName.variants(request.name)
  }
  for (const r of requests.slice(0, 300)) verify(r.request)
  const times: Array<number> = []
  const base: Array<number> = []
  let found = 0
  let touched = 0
  for (const r of requests.slice(0, 500)) {
    const q = r.request
    touched += index.explain(
      prepareRequest({ name: q.name, alternatives: [] }, UsAddress.parse(q.address), {
        phone: q.phone_number,
        officers: []
      })
    ).touched
  }
  for (const r of requests) {
    let t = performance.now()
    normalise(r.request)
    base.push(performance.now() - t)
    t = performance.now()
    const v = verify(r.request)
    times.push(performance.now() - t)
    if ((v.business?.id ?? null) === r.expected) found++
  }
  await runtime.dispose()
  return {
    size,
    build,
    heapPerRecord,
    keys: index.keys,
    p50: pct(times, 50),
    p99: pct(times, 99),
    baseP50: pct(base, 50),
    found: found / requests.length,
    touchedShare: touched / 500 / size
  }
}

const benchScreening = () => {
  const t0 = performance.now()
  const screener = Watchlist.makeScreener(Watchlist.OFAC_SDN, Watchlist.ofacSdnEntries())
  const build = performance.now() - t0
  const random = Synthetic.prng(7)
  const entries = Watchlist.ofacSdnEntries()
  const queries: Array<Watchlist.ScreeningQuery> = []
  for (let i = 0; i < 5000; i++) {
    if (i % 4 === 0) {
      const e = random.pick(entries)
      queries.push({ name: e.name, kind: e.kind === "individual" ? "person" : "business" })
    } else if (i % 4 === 1) {
      queries.push({ name: `${Synthetic.business(3, i).business_officers[0]!.name}`, kind: "person" })
    } else {
      queries.push({ name: Synthetic.business(3, i).name, kind: "business" })
    }
  }
  for (const q of queries.slice(0, 500)) screener.screen([q])
  const times: Array<number> = []
  const base: Array<number> = []
  let hits = 0
  for (const q of queries) {
    let t = performance.now()
    Watchlist.screeningTokens(q.name, q.kind)
    base.push(performance.now() - t)
    t = performance.now()
    hits += screener.screen([q]).length > 0 ? 1 : 0
    times.push(performance.now() - t)
  }
  return {
    build,
    names: screener.size,
    p50: pct(times, 50),
    p99: pct(times, 99),
    baseP50: pct(base, 50),
    hitRate: hits / queries.length
  }
}

const main = async () => {
  const rows: Array<SizeRow> = []
  for (const size of sizes) {
    const row = await benchSize(size)
    rows.push(row)
    console.log(`size ${size}: build ${row.build.toFixed(1)} s, p50 ${ms(row.p50)} ms, p99 ${ms(row.p99)} ms`)
  }
  const s = benchScreening()
  const first = rows[0]!
  const table = [
    "| registry | index build | heap per record | index keys | verify p50 | verify p99 | baseline p50 (normalise only) | p50 / baseline | p50 growth vs smallest | records voted per search | found own record |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map((r) =>
      `| ${r.size.toLocaleString("en-US")} | ${r.build.toFixed(1)} s | ${(r.heapPerRecord / 1024).toFixed(2)} KiB | ${
        r.keys.toLocaleString("en-US")
      } | ${ms(r.p50)} ms | ${ms(r.p99)} ms | ${ms(r.baseP50)} ms | ${(r.p50 / r.baseP50).toFixed(1)}x | ${
        (r.p50 / first.p50).toFixed(2)
      }x | ${(r.touchedShare * 100).toFixed(3)}% | ${(r.found * 100).toFixed(1)}% |`
    )
  ].join("\n")
  const screening = [
    "| list | names indexed | index build | screening p50 | screening p99 | baseline p50 (normalise only) | p99 / baseline p50 | names with a hit |",
    "|---|---|---|---|---|---|---|---|",
    `| OFAC SDN 2021-07 | ${s.names.toLocaleString("en-US")} | ${s.build.toFixed(0)} ms | ${ms(s.p50)} ms | ${
      ms(s.p99)
    } ms | ${ms(s.baseP50)} ms | ${(s.p99 / s.baseP50).toFixed(1)}x | ${(s.hitRate * 100).toFixed(1)}% |`
  ].join("\n")
  console.log(`\n${table}\n\n${screening}`)
  if (!process.argv.includes("--no-write")) {
    const stamp = `Measured ${
      new Date().toISOString().slice(0, 10)
    }, Node ${process.version}, ${QUERIES} requests per size (10% for businesses not in the registry).`
    writeSection("PERFORMANCE.md", "bench:engine", `${stamp}\n\n${table}\n\n${screening}`)
  }
}

main()
