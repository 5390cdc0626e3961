/**
 * The sandbox is deterministic: the same onboarding run on two fresh sandbox hosts gives the same
 * decisions, byte-identical Search JSON and byte-identical webhook bodies (ids, times, scores).
 */
import { startSandboxHost } from "@osiris/testkit"
import { describe, expect, it } from "vitest"
import { onboard } from "../src/onboarding.js"

const merchants = [
  { name: "Cyphorus Reg Company", address: "7763 Kristel ST, Hickory Grove, SC 29717", tin: "30-3079055" },
  { name: "Cyphorus Reg Company", address: "7763 Kristel ST, Hickory Grove, SC 29717", tin: "99-9999999" },
  { name: "Darkey & Vinny Industrial Inc", address: "9068 N Heather LN, Huntsville, TX 77349" },
  { name: "Osiris Nonexistent Widgets LLC", address: "500 Main St, Springfield, IL 62701" }
]

/** Everything the run saw, with the host's address (an ephemeral port) written as `{base_url}`. */
const transcript = async () => {
  const host = await startSandboxHost()
  try {
    const lines: Array<string> = []
    for (const m of merchants) {
      const decision = await onboard({ baseUrl: host.baseUrl, apiKey: host.sandboxKey }, m)
      lines.push(JSON.stringify(decision))
      const search = await fetch(`${host.baseUrl}/searches/${decision.searchId}`, {
        headers: { "x-api-key": host.sandboxKey }
      })
      const text = await search.text()
      lines.push(text)
      const type = `BusinessSearch.${(JSON.parse(text) as { state: string }).state.toLowerCase()}`
      const done = await host.sink.waitFor(type, (d) => d.event?.data.id === decision.searchId)
      lines.push(done.webhookId, done.body)
    }
    return lines.map((l) => l.replaceAll(host.baseUrl, "{base_url}"))
  } finally {
    await host.close()
  }
}

describe("a sandbox run", () => {
  it("is the same, byte for byte, every time", async () => {
    const first = await transcript()
    const second = await transcript()
    expect(first).toHaveLength(merchants.length * 4)
    expect(second).toStrictEqual(first)
  })
})
