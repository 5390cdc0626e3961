import { Sandbox } from "@osiris/core"
import { type SandboxHost, startSandboxHost } from "@osiris/testkit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { onboard } from "../src/onboarding.js"

const addressOf = (b: ReturnType<typeof Sandbox.registry>[number]) => {
  const a = b.addresses[0]!
  return `${a.street}, ${a.city}, ${a.state} ${a.zip}`
}

describe("merchant onboarding against the Osiris sandbox", () => {
  let host: SandboxHost
  beforeAll(async () => {
    host = await startSandboxHost()
  }, 60_000)
  afterAll(() => host.close())

  it("approves a business in good standing and hears the webhook", async () => {
    const b = Sandbox.registry().find((r) =>
      r.watchlist_hits.length === 0 && r.registrations.every((g) => g.status === "ACTIVE" && g.standing === "GOOD")
    )!
    const decision = await onboard({ baseUrl: host.baseUrl, apiKey: host.sandboxKey }, {
      name: b.name,
      address: addressOf(b)
    })
    expect(decision).toMatchObject({ approved: true, reasons: [] })
    const delivery = await host.sink.waitFor("BusinessSearch.completed", (d) => d.event?.data.id === decision.searchId)
    expect(delivery.verified).toBe(true)
  })

  it("refuses a business whose officer is on a watchlist", async () => {
    const b = Sandbox.registry().find((r) => r.watchlist_hits.length > 0)!
    const decision = await onboard({ baseUrl: host.baseUrl, apiKey: host.sandboxKey }, {
      name: b.name,
      address: addressOf(b)
    })
    expect(decision.approved).toBe(false)
    expect(decision.reasons).toContain("watchlist hit")
  })

  it("refuses a business the registry does not know", async () => {
    await expect(onboard({ baseUrl: host.baseUrl, apiKey: host.sandboxKey }, {
      name: "Nobody Knows This Name Ltd",
      address: "1 Nowhere Rd, Fargo, ND 58102"
    })).resolves.toMatchObject({ approved: false, reasons: ["not verified"] })
  })
})
