/**
 * `npm run fuzz`: property-based fuzzing (fast-check) of the HTTP surface of a real host process on
 * PostgreSQL. Each case is one raw HTTP/1.1 request written byte by byte on a socket (so control
 * characters and invalid UTF-8 reach the server): any method on any path, ids with traversal and bad
 * percent-encoding, arbitrary and broken JSON, invalid UTF-8, huge and deeply nested bodies, wrong
 * content types, absurd Prefer and Idempotency-Key values. The property: never a 5xx, every error
 * in the documented shape (JSON with `detail`), and the server still up at the end.
 * `FUZZ_RUNS` (default 10,000) and `FUZZ_SEED` choose the cases. Prints the table and writes it into
 * docs/RELIABILITY.md (`--no-write` to skip).
 */
import { Sandbox } from "@osiris/core"
import fc from "fast-check"
import { connect } from "node:net"
import { writeSection } from "../../core/eval/Docs.js"
import { scratch, startHost } from "./Hosts.js"

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000)
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647)

interface Answer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: Buffer
}

/** Sends raw bytes on a fresh connection; reads the whole answer (the request says `connection: close`). */
const raw = (port: number, bytes: Buffer) =>
  new Promise<Answer | { readonly error: string }>((resolve) => {
    const chunks: Array<Buffer> = []
    const socket = connect(port, "127.0.0.1")
    socket.setTimeout(30_000, () => socket.destroy(new Error("timeout")))
    socket.on("data", (d) => chunks.push(d))
    socket.on("error", () => {
      // A reset after the answer was sent (the server stops reading an oversized body) is fine.
    })
    socket.on("close", () => {
      const all = Buffer.concat(chunks)
      const end = all.indexOf("\r\n\r\n")
      if (end < 0) return resolve({ error: all.length === 0 ? "no answer" : "truncated answer" })
      const head = all.subarray(0, end).toString("latin1").split("\r\n")
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0] ?? "")?.[1] ?? 0)
      const headers: Record<string, string> = {}
      for (const line of head.slice(1)) {
        const i = line.indexOf(":")
        headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
      }
      let body = all.subarray(end + 4)
      if (headers["transfer-encoding"] === "chunked") {
        const parts: Array<Buffer> = []
        let at = 0
        for (;;) {
          const eol = body.indexOf("\r\n", at)
          if (eol < 0) break
          const size = parseInt(body.subarray(at, eol).toString(), 16)
          if (!(size > 0)) break
          parts.push(body.subarray(eol + 2, eol + 2 + size))
          at = eol + 2 + size + 2
        }
        body = Buffer.concat(parts)
      }
      resolve({ status, headers, body })
    })
    // No half-close: the request says `connection: close`, so the server closes after answering.
    socket.write(bytes)
  })

const main = async () => {
  const db = await scratch()
  const host = await startHost(db.url, { OSIRIS_REQUEST_LOG: "false" })
  const port = Number(new URL(host.base).port)
  const keys = await db.newKeys("fuzz")
  const sample = Sandbox.registry()[0]!
  const valid = { name: sample.name, address: sample.address ?? "" }
  const created = await fetch(`${host.base}/searches`, {
    method: "POST",
    headers: { "x-api-key": keys.sandbox, "content-type": "application/json" },
    body: JSON.stringify(valid)
  })
  const existing = ((await created.json()) as { id: string }).id

  // Pieces of requests.
  const text = fc.string({ unit: "binary", maxLength: 40 })
  const bytes = fc.uint8Array({ maxLength: 60 }).map((a) => Buffer.from(a))
  const id = fc.oneof(
    fc.uuid(),
    fc.constant(existing),
    fc.constantFrom(
      "..",
      "../../etc/passwd",
      "..%2F..%2Fapi_keys",
      "%2e%2e",
      "%00",
      "%ZZ",
      "%E0%A4%A",
      "%C0%AF",
      "",
      "x".repeat(5000)
    ),
    text.map((s) => encodeURIComponent(s)),
    fc.string({ maxLength: 30 })
  )
  const path = fc.oneof(
    fc.constantFrom(
      "/searches",
      "/api_keys",
      "/webhooks",
      "/usage",
      "/autocomplete/businesses",
      "/health/live",
      "/health/ready",
      "/openapi.json",
      "/",
      "/docs"
    ),
    id.map((i) => `/searches/${i}`),
    id.map((i) => `/searches/${i}/status`),
    id.map((i) => `/searches/${i}/cancel`),
    id.map((i) => `/businesses/${i}`),
    id.map((i) => `/businesses/${i}/status`),
    fc.tuple(
      fc.constantFrom(
        "website_analysis_requests",
        "naics_prediction_requests",
        "pep_screening_requests",
        "enhanced_requests"
      ),
      id
    )
      .map(([k, i]) => `/${k}/${i}`),
    id.map((i) => `/webhooks/${i}`),
    id.map((i) => `/webhooks/${i}/deliveries`),
    id.map((i) => `/webhooks/${i}/rotate_secret`),
    id.map((i) => `/events/${i}/redeliver`),
    id.map((i) => `/api_keys/${i}`),
    id.map((i) => `/console/searches/${i}`),
    fc.string({ maxLength: 60 }).map((s) => `/${s.replace(/[\s?#]/g, "")}`)
  )
  const query = fc.oneof(
    fc.constant(""),
    fc.constantFrom(
      "?limit=0",
      "?limit=-1",
      "?limit=1e400",
      "?limit=abc",
      "?limit=1&limit=2",
      "?q=%ZZ",
      "?q=",
      "?cursor=%00",
      "?state=NOPE",
      "?wait=1"
    ),
    fc.tuple(fc.constantFrom("limit", "q", "cursor", "state", "offset", "from", "to"), text)
      .map(([k, v]) => `?${k}=${encodeURIComponent(v)}`)
  )
  const method = fc.constantFrom("GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD", "TRACE", "FOO")
  const key = fc.oneof(
    fc.constant(keys.sandbox),
    fc.constant(keys.sandbox),
    fc.constant(keys.live),
    fc.constant(undefined),
    fc.constant(`osk_test_${"A".repeat(43)}`),
    text
  )
  // Mostly values a client could send (so requests reach the API), sometimes raw bytes Node refuses.
  const headerValue = fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }).map((s) => Buffer.from(s.replace(/[^\x20-\x7e]/g, ""))) },
    { weight: 1, arbitrary: bytes },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "wait=0",
        "wait=-1",
        "wait=99999999999999999999",
        "wait=1.5",
        "respond-async",
        "respond-async, wait=1",
        "wait=",
        "wait=NaN",
        "handling=strict"
      ).map((s) => Buffer.from(s))
    },
    { weight: 1, arbitrary: fc.nat({ max: 20_000 }).map((n) => Buffer.from("k".repeat(n))) }
  )
  const contentType = fc.oneof(
    fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "application/xml",
      "multipart/form-data; boundary=x",
      "application/x-www-form-urlencoded",
      "application/json; charset=latin1"
    ),
    fc.constant(undefined),
    text
  )
  const jsonish = fc.oneof(
    fc.constant(JSON.stringify(valid)),
    fc.record({
      name: fc.oneof(fc.string({ maxLength: 600 }), fc.anything()),
      address: fc.oneof(fc.string({ maxLength: 600 }), fc.anything()),
      tin: fc.option(fc.oneof(fc.string({ maxLength: 15 }), fc.anything())),
      website: fc.option(fc.oneof(fc.webUrl(), fc.string({ maxLength: 30 }), fc.anything())),
      officer_names: fc.option(fc.oneof(fc.array(fc.string({ maxLength: 30 }), { maxLength: 5 }), fc.anything())),
      options: fc.option(
        fc.array(
          fc.oneof(
            fc.constantFrom("Order.WebsiteAnalysis", "Order.NaicsPrediction", "Order.Pep", "Order.Enhanced"),
            fc.string()
          ),
          { maxLength: 6 }
        )
      ),
      url: fc.option(fc.oneof(fc.webUrl(), fc.string())),
      event_types: fc.option(fc.anything())
    }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.anything().map((v) => {
      try {
        return JSON.stringify(v) ?? ""
      } catch {
        return ""
      }
    }),
    fc.string({ maxLength: 100 }),
    fc.nat({ max: 200_000 }).map((n) => "[".repeat(n)),
    fc.nat({ max: 50_000 }).map((n) => `${"{\"a\":".repeat(n)}1${"}".repeat(n)}`),
    fc.constant(`{"name":"${"x".repeat(1_100_000)}","address":"y"}`),
    fc.constant("{\"name\": \"\\ud800\", \"address\": \"\\u0000\"}")
  )
  const body = fc.oneof({ weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) }, {
    weight: 6,
    arbitrary: jsonish.map((s) => Buffer.from(s))
  }, { weight: 1, arbitrary: bytes })
  const request = fc.record({
    method,
    path,
    query,
    key,
    contentType,
    prefer: fc.option(headerValue),
    idem: fc.option(headerValue),
    body,
    chunked: fc.boolean()
  })

  type Case = typeof request extends fc.Arbitrary<infer T> ? T : never
  const statuses = new Map<number, number>()
  let cases = 0
  let refusedHeaders = 0
  let resets = 0
  const started = performance.now()
  const problems: Array<string> = []
  const check = async (r: Case) => {
    cases++
    const lines: Array<Buffer> = [
      Buffer.from(`${r.method} ${r.path}${r.query} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n`)
    ]
    if (r.key !== undefined) lines.push(Buffer.from(`x-api-key: `), Buffer.from(r.key, "latin1"), Buffer.from("\r\n"))
    if (r.contentType !== undefined) {
      lines.push(Buffer.from(`content-type: `), Buffer.from(r.contentType, "latin1"), Buffer.from("\r\n"))
    }
    if (r.prefer !== null) lines.push(Buffer.from("prefer: "), r.prefer, Buffer.from("\r\n"))
    if (r.idem !== null) lines.push(Buffer.from("idempotency-key: "), r.idem, Buffer.from("\r\n"))
    if (r.chunked) {
      lines.push(Buffer.from("transfer-encoding: chunked\r\n\r\n"))
      if (r.body.length > 0) lines.push(Buffer.from(`${r.body.length.toString(16)}\r\n`), r.body, Buffer.from("\r\n"))
      lines.push(Buffer.from("0\r\n\r\n"))
    } else {
      lines.push(Buffer.from(`content-length: ${r.body.length}\r\n\r\n`), r.body)
    }
    const bytes = Buffer.concat(lines)
    let answer = await raw(port, bytes)
    if ("error" in answer) {
      // Counted and reported; the case fails only if the same request gets no answer twice.
      resets++
      answer = await raw(port, bytes)
    }
    const what = `${r.method} ${r.path.slice(0, 80)}${r.query.slice(0, 40)}`
    if ("error" in answer) {
      problems.push(`${what}: ${answer.error}`)
      return false
    }
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
    if (answer.status >= 500 || answer.status < 100) {
      problems.push(`${what}: ${answer.status} ${answer.body.toString().slice(0, 200)}`)
      return false
    }
    // The console's pages are for browsers: their errors are HTML pages (docs/CONTRACT.md).
    const page = r.path.startsWith("/console/") && (answer.headers["content-type"] ?? "").startsWith("text/html")
    if (answer.status >= 400 && r.method !== "HEAD" && !page) {
      let detail: unknown
      try {
        detail = (JSON.parse(answer.body.toString()) as { detail?: unknown }).detail
      } catch {
        detail = undefined
      }
      const ok = (typeof detail === "string" && detail.length > 0) || (answer.status === 422 && Array.isArray(detail))
      if (!ok || !(answer.headers["content-type"] ?? "").startsWith("application/json")) {
        problems.push(`${what}: ${answer.status} not in the documented shape: ${answer.body.toString().slice(0, 200)}`)
        return false
      }
      if (answer.status === 400 && /not valid HTTP/.test(String(detail))) refusedHeaders++
    }
    return true
  }

  console.log(`fuzzing ${host.base} with ${RUNS} cases, seed ${SEED}`)
  let failure: string | undefined
  try {
    await fc.assert(fc.asyncProperty(request, check), { numRuns: RUNS, seed: SEED, endOnFailure: true })
  } catch (e) {
    failure = (e as Error).message.split("\n").slice(0, 6).join("\n")
  }
  const seconds = (performance.now() - started) / 1000
  const alive = host.proc.exitCode === null
  const ready = alive ? (await fetch(`${host.base}/health/ready`)).status : 0
  const after = alive
    ? (await fetch(`${host.base}/searches`, {
      method: "POST",
      headers: { "x-api-key": keys.sandbox, "content-type": "application/json" },
      body: JSON.stringify(valid)
    })).status
    : 0
  host.proc.kill("SIGTERM")
  await host.exited
  await db.dispose()

  const byStatus = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(", ")
  const fivexx = [...statuses.entries()].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0)
  const table = [
    `${
      new Date().toISOString().slice(0, 10)
    }, \`npm run fuzz\` (seed ${SEED}; \`FUZZ_SEED=${SEED} npm run fuzz\` repeats it)`,
    "",
    "| check | result |",
    "|---|---|",
    `| cases run | ${cases} (asked for ${RUNS}) in ${seconds.toFixed(0)} s |`,
    `| answers by status | ${byStatus} |`,
    `| 5xx answers | ${fivexx} |`,
    `| errors outside the documented shape, or no answer | ${problems.length} |`,
    `| refused by Node's HTTP parser, answered in the documented shape | ${refusedHeaders} |`,
    `| connections closed without an answer, answered when sent again | ${resets} |`,
    `| server up afterwards | ${alive ? `yes (ready ${ready}, a search ${after})` : "no"} |`,
    `| verdict | ${failure === undefined && alive && ready === 200 && after === 201 ? "PASS" : "FAIL"} |`
  ].join("\n")
  console.log(table)
  if (problems.length > 0) console.log(`first problems:\n${problems.slice(0, 10).join("\n")}`)
  if (failure !== undefined) console.log(failure)
  if (!process.argv.includes("--no-write")) writeSection("RELIABILITY.md", "fuzz", table)
  process.exit(failure === undefined && alive && ready === 200 && after === 201 ? 0 : 1)
}

await main()
