import { Sandbox } from "@osiris/core"
import { spawnSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

describe("embed-core", () => {
  it("verifies a request against a JSONL registry, as a program", () => {
    const records = Sandbox.registry().slice(0, 25)
    const file = join(mkdtempSync(join(tmpdir(), "embed-core-")), "businesses.jsonl")
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n"))
    const b = records[3]!
    const a = b.addresses[0]!
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        join(import.meta.dirname, "..", "src", "main.ts"),
        file,
        JSON.stringify({
          name: b.name,
          address: `${a.street}, ${a.city}, ${a.state} ${a.zip}`
        })
      ],
      { encoding: "utf8" }
    )
    expect(run.status, run.stderr).toBe(0)
    const search = JSON.parse(run.stdout)
    expect(search).toMatchObject({ state: "COMPLETED", business_name_match: "EXACT" })
    expect(search.business.id).toBe(b.id)
  })
})
