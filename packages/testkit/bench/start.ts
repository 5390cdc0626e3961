/**
 * `npm run bench:testkit`: how long `startSandboxHost()` takes, in fresh processes (the first host of
 * a process pays for loading the template and compiling PGlite) and again in the same process, beside
 * the baseline of opening the bare embedded database from the same template. Target: under 2 s.
 * Prints the table and writes it into docs/PERFORMANCE.md (`--no-write` to skip).
 */
import { spawnSync } from "node:child_process"
import { writeSection } from "../../core/eval/Docs.js"

const RUNS = Number(process.env.RUNS ?? 5)

if (process.argv.includes("--child")) {
  const { Database } = await import("@osiris/http")
  const { Effect, Layer } = await import("effect")
  const { startSandboxHost, Template } = await import("../src/index.js")
  const t0 = performance.now()
  const first = await startSandboxHost()
  const t1 = performance.now()
  const second = await startSandboxHost()
  const t2 = performance.now()
  await first.close()
  await second.close()
  const template = await Template.get()
  const t3 = performance.now()
  await Effect.runPromise(Effect.scoped(Layer.build(Database.layerEmbedded(undefined, { template }))))
  const t4 = performance.now()
  console.log(JSON.stringify({ first: t1 - t0, again: t2 - t1, bare: t4 - t3 }))
  process.exit(0)
}

const samples: Array<{ first: number; again: number; bare: number }> = []
for (let i = 0; i < RUNS; i++) {
  const r = spawnSync(process.execPath, ["--import", "tsx", import.meta.filename, "--child"], { encoding: "utf8" })
  const line = r.stdout.trim().split("\n").pop() ?? ""
  if (r.status !== 0) throw new Error(`run ${i} failed: ${r.stderr}`)
  samples.push(JSON.parse(line))
}
const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const max = (xs: Array<number>) => Math.max(...xs)
const row = (name: string, xs: Array<number>) => `| ${name} | ${median(xs).toFixed(0)} | ${max(xs).toFixed(0)} |`
const first = samples.map((s) => s.first)
const bare = samples.map((s) => s.bare)
const table = [
  `${RUNS} fresh processes, ${new Date().toISOString().slice(0, 10)} (\`npm run bench:testkit\`)`,
  "",
  "| | median ms | worst ms |",
  "|---|---:|---:|",
  row("first `startSandboxHost()` of a process", first),
  row("another in the same process", samples.map((s) => s.again)),
  row("baseline: the bare embedded database from the template", bare),
  "",
  `First start / bare database: ${(median(first) / median(bare)).toFixed(2)}x. Target: first start under 2,000 ms: ${
    max(first) < 2000 ? "holds" : median(first) < 2000 ? "holds at the median, not in the worst run" : "misses"
  }.`
].join("\n")
console.log(table)
if (!process.argv.includes("--no-write")) writeSection("PERFORMANCE.md", "bench:testkit", table)
