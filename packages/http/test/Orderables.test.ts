import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Naics, Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { WebsiteAnalysis } from "../src/index.js"

const sandbox = Synthetic.registry(21, 60)
const production = Synthetic.registry(22, 60)
const line = (b: (typeof sandbox)[number]) => ({
  name: b.name,
  address: `${b.addresses[0]!.street}, ${b.addresses[0]!.city}, ${b.addresses[0]!.state} ${b.addresses[0]!.zip}`
})
const ALL = ["Order.WebsiteAnalysis", "Order.NaicsPrediction", "Order.Pep", "Order.Enhanced"]

/** Reads a record until it is no longer PENDING or EXECUTING. */
const settled = (base: string, key: string, url: string) =>
  Effect.gen(function*() {
    const path = url.replace(TestHost.BASE_URL, "")
    for (let i = 0; i < 200; i++) {
      const r = yield* TestHost.call(base, key, "GET", path)
      if (r.status !== 200 || (r.body.state !== "PENDING" && r.body.state !== "EXECUTING")) return r
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 25)))
    }
    throw new Error(`${url} did not settle`)
  })

for (const backend of Backends.all()) {
  describe(`orderables on ${backend.name}`, () => {
    layer(TestHost.layer(backend, { sandboxRegistry: sandbox, productionRegistry: production }), {
      timeout: "60 seconds"
    })((it) => {
      it.effect("each option's orderable is created with the search and completes after it (sandbox)", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          const created = yield* TestHost.call(base, key, "POST", "/searches", { ...line(sandbox[3]!), options: ALL })
          expect(created.status).toBe(201)
          const s = created.body
          expect(s.options).toEqual(ALL)
          expect(s.orderables.map((o: any) => [o.option, o.type])).toEqual([
            ["Order.WebsiteAnalysis", "WebsiteAnalysisRequest"],
            ["Order.NaicsPrediction", "NAICSPredictionRequest"],
            ["Order.Pep", "PepScreeningRequest"],
            ["Order.Enhanced", "EnhancedSearchRequest"]
          ])
          expect(s.orderables[0].url).toBe(`${TestHost.BASE_URL}/website_analysis_requests/${s.orderables[0].id}`)
          const records = yield* Effect.forEach(s.orderables, (o: any) => settled(base, key, o.url))
          for (const [i, r] of records.entries()) {
            expect(r.status).toBe(200)
            expect(Object.keys(r.body)).toEqual([
              "id",
              "type",
              "option",
              "state",
              "search_id",
              "business_id",
              "reference_id",
              "created_at",
              "updated_at",
              "result",
              "error"
            ])
            expect(r.body).toMatchObject({
              id: s.orderables[i].id,
              option: ALL[i],
              state: "COMPLETED",
              search_id: s.id,
              business_id: s.business.id,
              error: null
            })
          }
          const [website, naics, pep, enhanced] = records.map((r) => r.body.result)
          expect(website).toMatchObject({ status: 200, final_url: expect.stringMatching(/^https:\/\//), parked: false })
          expect(naics.predictions).toEqual(Naics.predict([s.business.name], 3))
          expect(pep).toMatchObject({ list: "Osiris sandbox PEP list", hits: [] })
          expect(enhanced.officers.find((o: any) => o.name === "Avery Sandbox")).toMatchObject({ new: true })
          // Another application's record is 404; the other environment's 403.
          const other = yield* TestHost.client
          expect(
            (yield* TestHost.call(base, other.key, "GET", s.orderables[1].url.replace(TestHost.BASE_URL, ""))).status
          ).toBe(404)
        }))

      it.effect("a search that finds no business fails its orderables, saying why", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          const created = yield* TestHost.call(base, key, "POST", "/searches", {
            name: "Nonexistent Holdings Quorum Zeta",
            address: "1 Nowhere Rd, Fargo, ND 58102",
            options: ["Order.NaicsPrediction"]
          })
          expect(created.body.state).toBe("FAILED")
          const r = yield* settled(base, key, created.body.orderables[0].url)
          expect(r.body).toMatchObject({ state: "FAILED", result: null })
          expect(r.body.error).toContain("The search did not complete (FAILED)")
        }))

      it.effect("production work is billed once per search and completed orderable; GET /usage sums it per day", () =>
        Effect.gen(function*() {
          const { base, key, live } = yield* TestHost.client
          const created = yield* TestHost.call(base, live, "POST", "/searches", {
            ...line(production[5]!),
            options: ["Order.NaicsPrediction", "Order.Pep"]
          })
          expect(created.body.state).toBe("COMPLETED")
          const [naics, pep] = yield* Effect.forEach(created.body.orderables, (o: any) => settled(base, live, o.url))
          expect(naics!.body.state).toBe("COMPLETED")
          // No PEP list configured for production on this host: the orderable fails and says so.
          expect(pep!.body).toMatchObject({ state: "FAILED", error: expect.stringContaining("No PEP list") })
          // Sandbox work is never billed.
          yield* TestHost.call(base, key, "POST", "/searches", line(sandbox[4]!))
          const usage = yield* TestHost.call(base, live, "GET", "/usage")
          expect(usage.status).toBe(200)
          expect(usage.body.data.map((d: any) => [d.kind, d.count])).toEqual([["Order.NaicsPrediction", 1], [
            "search",
            1
          ]])
          expect(usage.body.total).toBe(2)
          expect((yield* TestHost.call(base, key, "GET", "/usage")).body.total).toBe(0)
          expect((yield* TestHost.call(base, live, "GET", "/usage?from=2026-13-01")).status).toBe(422)
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<
            { n: number }
          >`select count(*)::int as n from usage_records where environment = 'SANDBOX'`
          expect(rows[0]!.n).toBe(0)
        }))

      it.effect("cancelling a search cancels its orderables", () =>
        Effect.gen(function*() {
          const { base, key } = yield* TestHost.client
          const created = yield* Effect.promise(async () => {
            const r = await fetch(`${base}/searches`, {
              method: "POST",
              headers: { "x-api-key": key, "content-type": "application/json", prefer: "respond-async" },
              body: JSON.stringify({ ...line(sandbox[7]!), options: ["Order.Enhanced"] })
            })
            return (await r.json()) as any
          })
          const cancel = yield* TestHost.call(base, key, "POST", `/searches/${created.id}/cancel`)
          const r = yield* settled(base, key, created.orderables[0].url)
          // Either the cancel came first (CANCELLED) or the search had already finished (409, COMPLETED).
          expect(cancel.status === 200 ? "CANCELLED" : "COMPLETED").toBe(r.body.state)
        }))
    })
  })
}

describe("website analysis (a real fetch through the guard)", () => {
  const site = Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ base: string; close: () => Promise<void> }>((resolve) => {
        const s = createServer((req, res) => {
          if (req.url === "/") res.writeHead(301, { location: "/home" }).end()
          else if (req.url === "/home") {
            res.writeHead(200, { "content-type": "text/html" }).end(
              "<html><head><title> Harbor   Light Bakery </title></head><body>This domain is for sale!</body></html>"
            )
          } else res.writeHead(404).end()
        })
        s.listen(0, "127.0.0.1", () =>
          resolve({
            base: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
            close: () =>
              new Promise((r) => {
                s.closeAllConnections()
                s.close(() => r())
              })
          }))
      })
    ),
    (s) => Effect.promise(s.close)
  )

  it.scoped("follows redirects hop by hop and reads the title and parked-domain signs", () =>
    Effect.gen(function*() {
      const { base } = yield* site
      const a = yield* WebsiteAnalysis.analyse(`${base}/`, { allowInsecure: true })
      expect(a).toMatchObject({
        url: `${base}/`,
        final_url: `${base}/home`,
        status: 200,
        redirects: [{ url: `${base}/`, status: 301 }],
        title: "Harbor Light Bakery",
        tls: null,
        parked: true
      })
    }))

  it.scoped("refuses loopback and private addresses when development mode is off", () =>
    Effect.gen(function*() {
      const { base } = yield* site
      const refused = yield* Effect.flip(
        WebsiteAnalysis.analyse(base.replace("http:", "https:"), { allowInsecure: false })
      )
      expect(refused.message).toMatch(/^refused: /)
      const metadata = yield* Effect.flip(WebsiteAnalysis.analyse("https://169.254.169.254/", { allowInsecure: false }))
      expect(metadata.message).toBe("refused: 169.254.169.254 is a linkLocal address")
    }))
})
