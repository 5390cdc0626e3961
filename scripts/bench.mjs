// `npm run bench`: every benchmark in turn (engine, webhook delivery, sandbox host start), each in its own process with
// its own Node flags; arguments after `--` go to each (unknown ones are ignored).
import { spawnSync } from "node:child_process"
import console from "node:console"
import process from "node:process"

const args = process.argv.slice(2)
const runs = [
  ["engine", [
    "--expose-gc",
    "--max-semi-space-size=64",
    "--max-old-space-size=16384",
    "--import",
    "tsx",
    "packages/core/bench/bench.ts"
  ]],
  ["webhook delivery", ["--import", "tsx", "packages/http/bench/delivery.ts"]],
  ["sandbox host start", ["--import", "tsx", "packages/testkit/bench/start.ts"]]
]
for (const [name, node] of runs) {
  console.log(`\n== ${name} ==`)
  const r = spawnSync(process.execPath, [...node, ...args], { stdio: "inherit" })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
