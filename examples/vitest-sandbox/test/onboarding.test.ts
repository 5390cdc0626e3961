import { Fixtures, type SandboxHost, startSandboxHost } from "@osiris/testkit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { onboard } from "../src/onboarding.js"

// Inputs from the magic-inputs table of packages/testkit/README.md.
const cyphorus = { name: "Cyphorus Reg Company", address: "7763 Kristel ST, Hickory Grove, SC 29717" }

describe("merchant onboarding against the Osiris sandbox", () => {
  let host: SandboxHost
  let osiris: { baseUrl: string; apiKey: string }
  beforeAll(async () => {
    host = await startSandboxHost()
    osiris = { baseUrl: host.baseUrl, apiKey: host.sandboxKey }
  })
  afterAll(() => host.close())

  it("approves a business in good standing and hears the webhook", async () => {
    const decision = await onboard(osiris, { ...cyphorus, tin: "30-3079055" })
    expect(decision).toMatchObject({ outcome: "approve", approved: true, reasons: [] })
    const delivery = await host.sink.waitFor("BusinessSearch.completed", (d) => d.event?.data.id === decision.searchId)
    expect(delivery.verified).toBe(true)
    expect(delivery.event?.data.tin_matched).toBe(true)
  })

  it("refuses a business whose TIN belongs to another business", async () => {
    const decision = await onboard(osiris, { ...cyphorus, tin: "46-1909355" })
    expect(decision).toMatchObject({ outcome: "refuse", reasons: ["not verified", "TIN does not match"] })
  })

  it("sends a business to review when the TIN authority is unavailable", async () => {
    const decision = await onboard(osiris, { ...cyphorus, tin: "99-9999999" })
    expect(decision).toMatchObject({ outcome: "review", reasons: ["TIN validation is unavailable."] })
  })

  it("refuses a business whose officer is on a watchlist", async () => {
    const b = Fixtures.byName("Darkey & Vinny Industrial Inc")!
    const decision = await onboard(osiris, { name: b.name, address: b.address ?? "" })
    expect(decision.approved).toBe(false)
    expect(decision.reasons).toContain("watchlist hit")
  })

  it("refuses a business the registry does not know", async () => {
    await expect(onboard(osiris, {
      name: "Osiris Nonexistent Widgets LLC",
      address: "500 Main St, Springfield, IL 62701"
    })).resolves.toMatchObject({ outcome: "refuse", reasons: ["not verified"] })
  })
})
