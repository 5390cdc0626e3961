import { Sandbox } from "@osiris/core"
import { describe, expect, it } from "vitest"
import { startSandboxHost } from "../src/index.js"

describe("startSandboxHost", () => {
  it("starts the whole host in-process with keys and a registered sink", async () => {
    const started = Date.now()
    const host = await startSandboxHost()
    const first = Date.now() - started
    // A second host in the same process starts from the shared template (printed, not asserted:
    // speed is for benchmarks on this shared machine).
    const again = Date.now()
    const second = await startSandboxHost()
    console.log(`sandbox hosts started in ${first} ms (first in the process) and ${Date.now() - again} ms`)
    await second.close()
    try {
      const b = Sandbox.registry()[10]!
      const a = b.addresses[0]!
      const r = await fetch(`${host.baseUrl}/searches`, {
        method: "POST",
        headers: { "x-api-key": host.sandboxKey, "content-type": "application/json" },
        body: JSON.stringify({ name: b.name, address: `${a.street}, ${a.city}, ${a.state} ${a.zip}` })
      })
      const s = (await r.json()) as { id: string; url: string; business: { id: string } }
      expect(r.status).toBe(201)
      expect(s.business.id).toBe(b.id)
      expect(s.url).toBe(`${host.baseUrl}/searches/${s.id}`)
      const d = await host.sink.waitFor("BusinessSearch.completed", (d) => d.event?.data.id === s.id)
      expect(d.verified).toBe(true)
      const live = await fetch(`${host.baseUrl}/searches`, { headers: { "x-api-key": host.productionKey } })
      expect(live.status).toBe(200)
    } finally {
      await host.close()
    }
  })
})

describe("determinism", () => {
  it("the same requests on two fresh sandbox hosts give byte-identical Search JSON", async () => {
    const run = async () => {
      const host = await startSandboxHost()
      try {
        const out: Array<string> = []
        for (const b of Sandbox.registry().slice(20, 24)) {
          const a = b.addresses[0]!
          const r = await fetch(`${host.baseUrl}/searches`, {
            method: "POST",
            headers: { "x-api-key": host.sandboxKey, "content-type": "application/json" },
            body: JSON.stringify({
              name: b.name,
              address: `${a.street}, ${a.city}, ${a.state} ${a.zip}`,
              options: ["Order.NaicsPrediction"]
            })
          })
          // The base URL differs between hosts (ephemeral ports): compare what follows it.
          out.push((await r.text()).replaceAll(host.baseUrl, "{base_url}"))
        }
        return out
      } finally {
        await host.close()
      }
    }
    const first = await run()
    const second = await run()
    expect(first.every((s) => s.includes("\"state\":\"COMPLETED\""))).toBe(true)
    expect(second).toEqual(first)
  })
})

describe("the shipped database template", () => {
  it("was made by the installed PGlite for the current migrations (else: npm run fixtures)", async () => {
    const { currentKey, shippedKey } = await import("../src/Template.js")
    expect(shippedKey()).toEqual(currentKey())
  })
})
