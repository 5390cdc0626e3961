import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Synthetic } from "@osiris/core"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Cli } from "../src/index.js"

const dir = mkdtempSync(join(tmpdir(), "osiris-cli-"))
const records = Synthetic.registry(21, 300)
const registryFile = join(dir, "registry.jsonl")
writeFileSync(
  registryFile,
  [
    ...records.map((r) => JSON.stringify(r)),
    JSON.stringify({
      id: "0192f3a4-5b6c-7d8e-9f01-00000000abcd",
      name: "Sparse Records Inc",
      address: "12 Elm St, Springfield, IL 62701",
      phone_numbers: null
    }),
    "{\"name\": \"no id\"}",
    "not json"
  ].join("\n") + "\n"
)
const random = Synthetic.prng(5)
const targets = [records[3]!, records[77]!, records[150]!]
const requestLines = [
  JSON.stringify(Synthetic.requestFor(random, targets[0]!)),
  "{\"name\": 5}",
  JSON.stringify({ name: "Nowhere Bakery", address: "1 Nowhere Rd, Boston, MA 02108" }),
  "",
  JSON.stringify({ ...Synthetic.requestFor(random, targets[1]!), name: targets[1]!.name }),
  JSON.stringify({ name: "Sparse Records", address: "12 Elm Street, Springfield, IL" }),
  JSON.stringify({ business_token: targets[2]!.id })
]
const inputFile = join(dir, "requests.jsonl")
writeFileSync(inputFile, requestLines.join("\n") + "\n")

const checkOutput = (lines: ReadonlyArray<string>) => {
  expect(lines).toHaveLength(6)
  const out = lines.map((l) => JSON.parse(l))
  expect(out[0]).toMatchObject({ state: "COMPLETED", business: { id: targets[0]!.id } })
  expect(out[1]).toStrictEqual({
    detail: [
      { type: "string_type", loc: ["body", "name"], msg: "Input should be a valid string", input: 5 },
      { type: "missing", loc: ["body", "address"], msg: "Field required", input: { name: 5 } }
    ]
  })
  expect(out[2]).toMatchObject({ state: "FAILED", error: "No match found.", business: null, verified: false })
  expect(out[3]).toMatchObject({ state: "COMPLETED", business_name_match: "EXACT", business: { id: targets[1]!.id } })
  expect(out[4]).toMatchObject({
    state: "COMPLETED",
    business: { id: "0192f3a4-5b6c-7d8e-9f01-00000000abcd", addresses: [] }
  })
  expect(out[5]).toMatchObject({ state: "COMPLETED", business_name_match: "EXACT", business: { id: targets[2]!.id } })
  expect(out[0].url).toBe(`http://localhost:8080/searches/${out[0].id}`)
}

describe("osiris verify", () => {
  it.live("writes one Search per request, in order, from files", () =>
    Effect.gen(function*() {
      const output = join(dir, "out.jsonl")
      yield* Cli.run(["node", "osiris", "verify", "--registry", registryFile, "--input", inputFile, "--output", output])
      checkOutput(readFileSync(output, "utf8").trim().split("\n"))
    }).pipe(Effect.provide(NodeContext.layer)), 60_000)

  it("reads standard input and writes standard output as a real process", async () => {
    const child = spawn(process.execPath, [
      join(import.meta.dirname, "..", "bin", "osiris.mjs"),
      "verify",
      "--registry",
      registryFile,
      "--base-url",
      "https://api.example.test/"
    ], {
      stdio: ["pipe", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.stdin.end(requestLines.join("\n") + "\n")
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve))
    expect(code).toBe(0)
    const lines = stdout.trim().split("\n")
    checkOutput(lines.map((l) => l.replace(/https:\/\/api\.example\.test/g, "http://localhost:8080")))
    expect(JSON.parse(lines[0]!).url).toMatch(/^https:\/\/api\.example\.test\/searches\//)
    expect(stderr).toContain("registry line 302 skipped")
    expect(stderr).toContain("registry line 303 skipped: not JSON")
  }, 60_000)

  it("refuses a missing registry file with a usage error, not a crash", async () => {
    const child = spawn(process.execPath, [
      join(import.meta.dirname, "..", "bin", "osiris.mjs"),
      "verify",
      "--registry",
      join(dir, "missing.jsonl")
    ], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (out += d))
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve))
    expect(code).not.toBe(0)
    expect(out).toMatch(/missing\.jsonl/)
  }, 60_000)
})

describe("osiris keys create", () => {
  it("prints a new key once as JSON, and refuses unknown scopes", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "osiris-keys-"))
    const run = (args: ReadonlyArray<string>) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [join(import.meta.dirname, "..", "bin", "osiris.mjs"), ...args], {
          env: { ...process.env, OSIRIS_DATA_DIR: dataDir, DATABASE_URL: "" },
          stdio: ["ignore", "pipe", "pipe"]
        })
        let out = ""
        child.stdout.on("data", (d) => (out += d))
        child.stderr.on("data", (d) => (out += d))
        child.on("close", (code) => resolve({ code, out }))
      })
    const a = await run(["keys", "create", "--app", "acme", "--environment", "production", "--json"])
    expect(a.code).toBe(0)
    const key = JSON.parse(a.out.trim().split("\n").pop()!)
    expect(Object.keys(key)).toStrictEqual(["id", "key", "app", "environment"])
    expect(key).toMatchObject({ app: "acme", environment: "PRODUCTION" })
    expect(key.key).toMatch(/^osk_live_[A-Za-z0-9_-]{43}$/)
    const b = await run(["keys", "create", "--app", "acme", "--environment", "sandbox", "--json"])
    expect(JSON.parse(b.out.trim().split("\n").pop()!).key).toMatch(/^osk_test_/)
    const bad = await run(["keys", "create", "--app", "acme", "--environment", "sandbox", "--scopes", "bogus"])
    expect(bad.code).not.toBe(0)
    expect(bad.out).toContain("unknown scopes: bogus")
  }, 60_000)
})

describe("osiris registry import", () => {
  it("loads the production registry as a real process, idempotently, reporting refused lines", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "osiris-registry-"))
    const run = () =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [join(import.meta.dirname, "..", "bin", "osiris.mjs"), "registry", "import", registryFile],
          { env: { ...process.env, OSIRIS_DATA_DIR: dataDir, DATABASE_URL: "" }, stdio: ["ignore", "pipe", "pipe"] }
        )
        let out = ""
        let err = ""
        child.stdout.on("data", (d) => (out += d))
        child.stderr.on("data", (d) => (err += d))
        child.on("close", (code) => resolve({ code, out, err }))
      })
    const first = await run()
    expect(first.code).toBe(0)
    expect(JSON.parse(first.out.trim())).toEqual({ imported: 301, rejected: 2 })
    expect(first.err).toContain("imported 301 records")
    expect(first.err).toContain("line 302:")
    expect(first.err).toContain("line 303: not JSON")
    const second = await run()
    expect(JSON.parse(second.out.trim())).toEqual({ imported: 301, rejected: 2 })
  }, 120_000)
})
