/**
 * Every row of the magic-inputs table in packages/testkit/README.md, read from the README itself,
 * run against a sandbox host: the documented input gives the documented outcome.
 */
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type SandboxHost, startSandboxHost } from "../src/index.js"

interface Row {
  readonly outcome: string
  readonly body: string
  readonly headers: Record<string, string>
  readonly expected: ReadonlyArray<{ readonly path: string; readonly value: unknown }>
}

const spans = (cell: string) => [...cell.matchAll(/`([^`]*)`/g)].map((m) => m[1]!.replaceAll("\\|", "|"))

/** The table's rows (the first table after the "Magic inputs" heading). */
const rows = (): ReadonlyArray<Row> => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
  const section = readme.slice(readme.indexOf("## Magic inputs"))
  const lines = section.split("\n")
  const start = lines.findIndex((l) => l.startsWith("| outcome |"))
  const out: Array<Row> = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break
    const cells = line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim())
    expect(cells).toHaveLength(4)
    const headers: Record<string, string> = {}
    for (const h of spans(cells[2]!)) {
      const i = h.indexOf(":")
      headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim()
    }
    out.push({
      outcome: cells[0]!,
      body: spans(cells[1]!)[0]!,
      headers,
      expected: spans(cells[3]!).map((e) => {
        const i = e.indexOf("=")
        const raw = e.slice(i + 1)
        let value: unknown = raw
        try {
          value = JSON.parse(raw)
        } catch {
          // a plain string
        }
        return { path: e.slice(0, i), value }
      })
    })
  }
  return out
}

const table = rows()
let host: SandboxHost
beforeAll(async () => {
  host = await startSandboxHost()
})
afterAll(() => host.close())

const get = async (url: string) => {
  const r = await fetch(url, { headers: { "x-api-key": host.sandboxKey } })
  expect(r.status).toBe(200)
  return (await r.json()) as any
}

/** Reads `url` until its state is final (the work runs in the host's background; no clock to move). */
const settled = async (url: string) => {
  const deadline = Date.now() + 20_000
  for (;;) {
    const v = await get(url)
    if (!["PENDING", "EXECUTING"].includes(v.state) || Date.now() > deadline) return v
    await new Promise((r) => setTimeout(r, 25))
  }
}

const at = (value: any, path: string): unknown =>
  path.split(/\.|(?=\[)/).filter((p) => p !== "").reduce(
    (v, p) => (v === null || v === undefined ? undefined : p.startsWith("[") ? v[Number(p.slice(1, -1))] : v[p]),
    value
  )

describe("magic inputs (packages/testkit/README.md)", () => {
  it("the table has a row for every outcome the issue names", () => {
    const text = table.map((r) =>
      `${r.outcome} ${r.expected.map((e) => `${e.path}=${JSON.stringify(e.value)}`).join(" ")}`
    )
      .join("\n")
    for (const grade of ["EXACT", "SIMILAR", "NO_MATCH"]) {
      expect(text).toContain(`business_name_match="${grade}"`)
      expect(text).toContain(`business_officer_match="${grade}"`)
      expect(text).toContain(`registered_agent_match="${grade}"`)
    }
    for (const grade of ["EXACT", "SIMILAR", "CITY", "STATE", "NO_MATCH"]) {
      expect(text).toContain(`business_address_match="${grade}"`)
    }
    for (const level of ["FULL", "PARTIAL", "INVALID"]) {
      expect(text).toContain(`search_address_validation_level="${level}"`)
    }
    for (const type of ["EIN", "SSN", "UNKNOWN"]) expect(text).toContain(`tin_match_type="${type}"`)
    for (const option of ["WebsiteAnalysis", "NaicsPrediction", "Pep", "Enhanced"]) {
      expect(text).toContain(`orderable(Order.${option}).state="COMPLETED"`)
    }
    expect(text).toContain(`.state="FAILED"`)
    expect(text).toContain("business_website_redirect_match=true")
    expect(text).toContain("tin_matched=null")
    expect(text).toContain("status=202")
    expect(text).toContain(`state="FAILED"`)
    expect(table.length).toBeGreaterThanOrEqual(29)
  })

  it.each(table.map((r) => [r.outcome, r] as const))("%s", async (_, row) => {
    const r = await fetch(`${host.baseUrl}/searches`, {
      method: "POST",
      headers: { "x-api-key": host.sandboxKey, "content-type": "application/json", ...row.headers },
      body: row.body
    })
    const created = (await r.json()) as any
    expect([200, 201, 202], JSON.stringify(created)).toContain(r.status)
    const search = await settled(created.url)
    for (const { path, value } of row.expected) {
      if (path === "status") {
        expect(r.status).toBe(value)
        continue
      }
      const m = /^orderable\(([^)]+)\)\.(.+)$/.exec(path)
      if (m !== null) {
        const orderable = search.orderables.find((o: any) => o.option === m[1])
        expect(orderable, `${m[1]} ordered`).toBeDefined()
        const record = await settled(orderable.url)
        expect(at(record, m[2]!), path).toEqual(value)
        continue
      }
      expect(at(search, path), path).toEqual(value)
    }
  })
})
