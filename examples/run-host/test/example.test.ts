import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

describe("run-host", () => {
  it("starts the host, creates a key, searches and receives the webhook", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "..", "src", "run.ts")], {
      encoding: "utf8",
      timeout: 90_000
    })
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout).toContain("1. created a sandbox key")
    expect(run.stdout).toMatch(/4\. POST \/searches -> 201 COMPLETED, verified true/)
    expect(run.stdout).toMatch(/5\. webhook BusinessSearch\.completed \S+, signature verified: true/)
  }, 120_000)
})
