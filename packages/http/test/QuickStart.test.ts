import { describe, expect, it } from "@effect/vitest"
import { HostProcess } from "@osiris/testkit"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

/** Starts the host as `npm start` does (embedded storage under `dataDir`, the default rate limit). */
const start = (port: number, dataDir: string) =>
  HostProcess.start({ PORT: String(port), OSIRIS_DATA_DIR: dataDir, DATABASE_URL: "", OSIRIS_RATE_LIMIT: "100" })

describe("quick start (npm start on the embedded default)", () => {
  it("prints a sandbox key once and a request that verifies; restarts keep the data", async () => {
    const port = await freePort()
    const dataDir = mkdtempSync(join(tmpdir(), "osiris-start-"))
    const first = await start(port, dataDir)
    const key = /osk_test_[A-Za-z0-9_-]{43}/.exec(first.output())![0]
    const body = /-d '(\{.*\})'/.exec(first.output())![1]!
    const r = await fetch(`http://127.0.0.1:${port}/searches`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body
    })
    expect(r.status).toBe(201)
    const search = await r.json() as { state: string; verified: boolean; url: string }
    expect(search).toMatchObject({ state: "COMPLETED", verified: true })
    expect(search.url.startsWith(`http://localhost:${port}/searches/`)).toBe(true)
    expect(await first.stop()).toBe(0)

    const second = await start(port, dataDir)
    expect(second.output()).not.toMatch(/osk_test_/)
    expect(second.output()).toContain("has 1 sandbox key(s)")
    const again = await fetch(`http://127.0.0.1:${port}/searches/${search.url.split("/").pop()}`, {
      headers: { "x-api-key": key }
    })
    expect(again.status).toBe(200)
    expect(await second.stop()).toBe(0)
  }, 120_000)
})
