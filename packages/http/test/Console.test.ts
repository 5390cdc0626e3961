/**
 * The console pages: served HTML (no JavaScript needed), the tenancy rules, and a real browser:
 * Debian's Chromium, headless, signing in with HTTP Basic and JavaScript turned off, reading the
 * page and saving a screenshot to test-output/ (packages/http/test-output/console-search.png).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect } from "effect"
import { existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { chromium } from "playwright-core"

const registry = Synthetic.registry(41, 40)
const target = registry[2]!
const request = {
  name: target.name,
  address: `${target.addresses[0]!.street}, ${target.addresses[0]!.city}, ${target.addresses[0]!.state} ${
    target.addresses[0]!.zip
  }`,
  options: ["Order.NaicsPrediction"]
}
const CHROMIUM = "/usr/bin/chromium"
const output = join(import.meta.dirname, "..", "test-output")

const backend = Backends.all()[0]!
describe("console pages", () => {
  layer(TestHost.layer(backend, { sandboxRegistry: registry }), { timeout: "60 seconds" })((it) => {
    const create = (base: string, key: string) =>
      Effect.promise(async () => {
        const r = await fetch(`${base}/searches`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify(request)
        })
        return (await r.json()) as { id: string; business: { id: string } }
      })
    const get = (url: string, headers: Record<string, string> = {}) =>
      Effect.promise(async () => {
        const r = await fetch(url, { headers })
        return { status: r.status, type: r.headers.get("content-type"), headers: r.headers, text: await r.text() }
      })

    it.effect("serve the search and the business as HTML, with the API's tenancy rules", () =>
      Effect.gen(function*() {
        const { base, key, live } = yield* TestHost.client
        const s = yield* create(base, key)
        const page = yield* get(`${base}/console/searches/${s.id}`, { "x-api-key": key })
        expect(page.status).toBe(200)
        expect(page.type).toContain("text/html")
        expect(page.text).toContain("VERIFIED")
        expect(page.text).toContain(target.name.replace(/&/g, "&amp;").replace(/'/g, "&#39;"))
        expect(page.text).toContain("Order.NaicsPrediction")
        expect(page.text).not.toContain("<script")
        const business = yield* get(`${base}/console/business/${s.business.id}`, { "x-api-key": key })
        expect(business.status).toBe(200)
        expect(business.text).toContain("Registrations")
        const anonymous = yield* get(`${base}/console/searches/${s.id}`)
        expect(anonymous.status).toBe(401)
        expect(anonymous.headers.get("www-authenticate")).toContain("Basic")
        const basic = `Basic ${Buffer.from(`analyst:${key}`).toString("base64")}`
        expect((yield* get(`${base}/console/searches/${s.id}`, { authorization: basic })).status).toBe(200)
        expect((yield* get(`${base}/console/searches/${s.id}`, { "x-api-key": live })).status).toBe(403)
        const other = yield* TestHost.client
        expect((yield* get(`${base}/console/searches/${s.id}`, { "x-api-key": other.key })).status).toBe(404)
        expect((yield* get(`${base}/console/searches/not-a-uuid`, { "x-api-key": key })).status).toBe(404)
      }))

    it.effect(
      "reads at a glance in headless Chromium without JavaScript; a screenshot is saved",
      () =>
        Effect.gen(function*() {
          expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium`).toBe(true)
          const { base, key } = yield* TestHost.client
          const s = yield* create(base, key)
          const shot = join(output, "console-search.png")
          const seen = yield* Effect.promise(async () => {
            mkdirSync(output, { recursive: true })
            const browser = await chromium.launch({
              executablePath: CHROMIUM,
              args: [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync"
              ]
            })
            try {
              const context = await browser.newContext({
                javaScriptEnabled: false,
                httpCredentials: { username: "analyst", password: key },
                viewport: { width: 1280, height: 1200 }
              })
              const page = await context.newPage()
              const response = await page.goto(`${base}/console/searches/${s.id}`)
              await page.screenshot({ path: shot, fullPage: true })
              return {
                status: response?.status(),
                title: await page.title(),
                verdict: await page.locator(".verdict").innerText(),
                badges: await page.locator(".badge").count(),
                extras: await page.locator("section", { hasText: "Extras" }).innerText()
              }
            } finally {
              await browser.close()
            }
          })
          expect(seen.status).toBe(200)
          expect(seen.title).toContain(target.name)
          expect(seen.verdict).toBe("VERIFIED")
          expect(seen.badges).toBeGreaterThanOrEqual(10)
          expect(seen.extras).toContain("Order.NaicsPrediction")
          expect(existsSync(shot)).toBe(true)
        }),
      { timeout: 60_000 }
    )
  })
})
