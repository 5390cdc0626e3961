import { Signature } from "@osiris/webhooks"
import { Effect } from "effect"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { receiver } from "../src/receiver.js"

describe("webhook-receiver", () => {
  it("verifies with standardwebhooks, handles each event once, refuses a bad signature", async () => {
    const secret = Effect.runSync(Signature.newSecret)
    const handled: Array<string> = []
    const { outcomes, server } = receiver(secret, (e) => handled.push(e.type))
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    const send = (id: string, body: string, key = secret) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...Signature.headersFor([key], id, Math.floor(Date.now() / 1000), body)
        },
        body
      }).then((r) => r.status)
    try {
      const body = JSON.stringify({
        type: "BusinessSearch.completed",
        timestamp: "2026-01-01T00:00:00.000000",
        data: {}
      })
      expect(await send("evt-1", body)).toBe(204)
      expect(await send("evt-1", body)).toBe(204)
      expect(await send("evt-2", body, Effect.runSync(Signature.newSecret))).toBe(401)
      expect(outcomes).toEqual(["handled", "duplicate", "refused"])
      expect(handled).toEqual(["BusinessSearch.completed"])
    } finally {
      server.close()
    }
  })
})
