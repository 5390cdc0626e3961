/**
 * `npm run chaos`: two host processes on one PostgreSQL under a steady mix of synchronous and
 * asynchronous creates, idempotent retries, reads and webhook deliveries to a local receiver, while
 * one process is killed with SIGKILL every few seconds and restarted; PostgreSQL is stopped and
 * started once mid-run; the receiver is down for a while. Then it checks and prints: every accepted
 * search reached a terminal state, none ran twice, every idempotent retry returned the original id,
 * every event reached the receiver at least once (verified with `standardwebhooks`), no 5xx other
 * than 503 while the database was down, and the hosts answered 503 then recovered by themselves.
 * `CHAOS_SECONDS` (default 60) is the load phase; `CHAOS_RECEIVER_DOWN` (default 60) the receiver's
 * outage. Needs the machine's PostgreSQL cluster (it is restarted with pg_ctlcluster). Writes
 * docs/RELIABILITY.md (`--no-write` to skip).
 */
import { Sandbox } from "@osiris/core"
import { execSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { Webhook } from "standardwebhooks"
import { writeSection } from "../../core/eval/Docs.js"
import { type HostProcess, scratch, startHost } from "./Hosts.js"

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 60)
const RECEIVER_DOWN = Number(process.env.CHAOS_RECEIVER_DOWN ?? 60)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`)

/** The receiver: verifies, records webhook-ids; can be taken down and brought back on its port. */
const receiver = () => {
  const received = new Map<string, number>()
  let refused = 0
  let verifier: Webhook | undefined
  let server: Server | undefined
  let port = 0
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (d: Buffer) => chunks.push(d))
        req.on("end", () => {
          const body = Buffer.concat(chunks).toString()
          try {
            verifier!.verify(body, req.headers as Record<string, string>)
            const id = String(req.headers["webhook-id"])
            received.set(id, (received.get(id) ?? 0) + 1)
            res.writeHead(204).end()
          } catch {
            refused++
            res.writeHead(401).end()
          }
        })
      })
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port
        resolve()
      })
    })
  const down = () =>
    new Promise<void>((resolve) => {
      server!.closeAllConnections()
      server!.close(() => resolve())
    })
  return {
    up,
    down,
    received,
    refused: () => refused,
    url: () => `http://127.0.0.1:${port}/hooks`,
    setSecret: (s: string) => (verifier = new Webhook(s))
  }
}

const cluster = () => readdirSync("/etc/postgresql")[0]!
const pg = (action: "stop" | "start") =>
  execSync(`pg_ctlcluster --skip-systemctl-redirect ${cluster()} main ${action}`, { stdio: "ignore" })

const main = async () => {
  const db = await scratch()
  const env = { OSIRIS_LEASE_SECONDS: "3", OSIRIS_WEBHOOK_ALLOW_INSECURE: "true", OSIRIS_REQUEST_LOG: "false" }
  const hosts: Array<HostProcess | undefined> = await Promise.all([startHost(db.url, env), startHost(db.url, env)])
  const keys = await db.newKeys("chaos")
  const sink = receiver()
  await sink.up()
  const hook = await fetch(`${hosts[0]!.base}/webhooks`, {
    method: "POST",
    headers: { "x-api-key": keys.sandbox, "content-type": "application/json" },
    body: JSON.stringify({ url: sink.url() })
  })
  const hookBody = (await hook.json()) as { secret: string }
  sink.setSecret(hookBody.secret)
  const businesses = Sandbox.registry().slice(0, 40)

  // Bookkeeping.
  const accepted = new Map<string, string>() // idempotency key -> search id
  const retriesWrong: Array<string> = []
  let retries = 0
  const statuses = new Map<number, number>()
  const unexpected5xx: Array<string> = []
  let resets = 0
  let dbDown = false
  let reads = 0
  const seen503 = { during: 0 }

  const pick = () => {
    const live = hosts.filter((h): h is HostProcess => h !== undefined)
    return live[Math.floor(Math.random() * live.length)]
  }
  const call = async (path: string, init: RequestInit) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const h = pick()
      if (h === undefined) {
        await sleep(200)
        continue
      }
      try {
        const r = await fetch(`${h.base}${path}`, { ...init, signal: AbortSignal.timeout(20_000) })
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
        if (r.status >= 500) {
          if (r.status === 503 && dbDown) seen503.during++
          else if (r.status === 503) {
            // The database just came back or went away: the host says so; try again.
          } else unexpected5xx.push(`${init.method} ${path}: ${r.status}`)
          await sleep(300)
          continue
        }
        return { status: r.status, body: (await r.json().catch(() => null)) as any }
      } catch {
        resets++ // the process was killed under the request: send it again (same idempotency key)
        await sleep(100)
      }
    }
    return undefined
  }
  const headers = { "x-api-key": keys.sandbox, "content-type": "application/json" }
  let n = 0
  const create = async (mode: "sync" | "async") => {
    const b = businesses[n % businesses.length]!
    const key = `chaos-${n++}`
    const init = {
      method: "POST",
      headers: { ...headers, "idempotency-key": key, prefer: mode === "sync" ? "wait=5" : "respond-async" },
      body: JSON.stringify({ name: b.name, address: b.address ?? "" })
    }
    const r = await call("/searches", init)
    if (r === undefined || r.status >= 400) return
    accepted.set(key, r.body.id)
    // An idempotent retry of the same request: the original id, from either process.
    if (n % 3 === 0) {
      retries++
      const again = await call("/searches", init)
      if (again !== undefined && again.body?.id !== r.body.id) {
        retriesWrong.push(`${key}: ${r.body.id} then ${again.body?.id}`)
      }
    }
  }
  const read = async () => {
    const ids = [...accepted.values()]
    if (ids.length === 0) return
    reads++
    await call(`/searches/${ids[Math.floor(Math.random() * ids.length)]}`, { method: "GET", headers })
  }

  let running = true
  const workers = Array.from({ length: 8 }, async (_, w) => {
    while (running) {
      const roll = (w + n) % 4
      if (roll === 0) await create("sync")
      else if (roll === 1) await create("async")
      else await read()
    }
  })

  // The killer: every 4-6 s one process dies by SIGKILL and a new one starts a second later.
  let kills = 0
  const killer = (async () => {
    let i = 0
    while (running) {
      await sleep(4000 + Math.random() * 2000)
      if (!running) break
      const idx = i++ % 2
      const victim = hosts[idx]
      if (victim === undefined) continue
      hosts[idx] = undefined
      victim.proc.kill("SIGKILL")
      kills++
      await victim.exited
      await sleep(1000)
      while (running && hosts[idx] === undefined) {
        try {
          hosts[idx] = await startHost(db.url, env)
        } catch {
          await sleep(1000) // the database may be down: try again
        }
      }
    }
  })()

  // PostgreSQL stopped for 8 s at a third of the run; health probes see 503 and then 200 again.
  const health: Array<string> = []
  const dbPhase = (async () => {
    await sleep((SECONDS * 1000) / 3)
    log("stopping PostgreSQL")
    dbDown = true
    pg("stop")
    await sleep(2000)
    const probe = async () => {
      const h = pick()
      if (h === undefined) return 0
      try {
        return (await fetch(`${h.base}/health/ready`, { signal: AbortSignal.timeout(5000) })).status
      } catch {
        return -1
      }
    }
    health.push(`while down: ${await probe()}`)
    await sleep(6000)
    log("starting PostgreSQL")
    pg("start")
    const back = Date.now()
    for (;;) {
      const s = await probe()
      if (s === 200) {
        health.push(`ready again ${((Date.now() - back) / 1000).toFixed(1)} s after the database came back`)
        break
      }
      if (Date.now() - back > 60_000) {
        health.push("not ready 60 s after the database came back")
        break
      }
      await sleep(250)
    }
    dbDown = false
  })()

  await sleep(SECONDS * 1000)
  await dbPhase
  // The receiver goes down for a while; searches go on (async, no killing) and then it comes back.
  log(`receiver down for ${RECEIVER_DOWN} s`)
  await sink.down()
  const downAt = Date.now()
  await sleep(RECEIVER_DOWN * 1000)
  running = false
  await Promise.all(workers)
  await killer
  await sink.up()
  log("receiver up again; waiting for every accepted search and every event")

  // Every accepted search terminal, and every event received.
  const ids = [...new Set(accepted.values())]
  const deadline = Date.now() + 10 * 60_000
  let pending = 0
  let missing: Array<string> = []
  for (;;) {
    const states = await db.query<{ state: string; n: number }>((sql) =>
      sql`select state, count(*)::int as n from searches where id in ${sql.in(ids)} group by state`
    )
    pending = states.filter((s) => !["COMPLETED", "FAILED", "CANCELLED"].includes(s.state)).reduce((a, s) => a + s.n, 0)
    const events = await db.query<{ id: string }>((sql) =>
      // Every event published for the receiver's endpoint (the keys' APIKey.created came before it).
      sql`select distinct e.id from webhook_events e join webhook_deliveries d on d.event_id = e.id
          where e.application_id = ${keys.app.id}`
    )
    missing = events.map((e) => e.id).filter((id) => !sink.received.has(id))
    if ((pending === 0 && missing.length === 0) || Date.now() > deadline) break
    await sleep(2000)
  }
  const resumedAfter = (Date.now() - downAt) / 1000
  const finishedTwice = await db.query<{ id: string; n: number }>((sql) =>
    sql`select payload::jsonb -> 'data' ->> 'id' as id, count(*)::int as n from webhook_events
        where application_id = ${keys.app.id} and type in ('BusinessSearch.completed', 'BusinessSearch.failed')
        group by 1 having count(*) > 1`
  )
  const finished = await db.query<{ n: number }>((sql) =>
    sql`select count(distinct payload::jsonb -> 'data' ->> 'id')::int as n from webhook_events
        where application_id = ${keys.app.id} and type in ('BusinessSearch.completed', 'BusinessSearch.failed')`
  )
  const eventCount = sink.received.size + missing.length
  const redelivered = [...sink.received.values()].filter((c) => c > 1).length

  for (const h of hosts) h?.proc.kill("SIGTERM")
  await Promise.all(hosts.map((h) => h?.exited))
  await db.dispose()

  const checks: Array<[string, boolean, string]> = [
    [
      "every accepted search reached a terminal state",
      pending === 0,
      `${ids.length} accepted, ${pending} not terminal`
    ],
    [
      "no search ran twice (one completed/failed event each)",
      finishedTwice.length === 0 && finished[0]!.n === ids.length,
      `${finished[0]!.n} finished once, ${finishedTwice.length} twice`
    ],
    [
      "every idempotent retry returned the original id",
      retriesWrong.length === 0,
      `${retries} retries, ${retriesWrong.length} wrong`
    ],
    [
      "every event reached the receiver at least once",
      missing.length === 0,
      `${eventCount} events, ${missing.length} missing, ${redelivered} delivered more than once, ${sink.refused()} refused signatures`
    ],
    [
      "no 5xx except 503 while the database was down",
      unexpected5xx.length === 0,
      `${unexpected5xx.length} other 5xx; ${seen503.during} × 503 while down; ${resets} requests cut by a kill (sent again)`
    ],
    [
      "503 while the database was down, then ready by itself",
      health.length === 2 && health[0] === "while down: 503" && health[1]!.startsWith("ready again"),
      health.join("; ")
    ],
    [
      "deliveries resumed after the receiver's outage",
      missing.length === 0,
      `all delivered ${
        resumedAfter.toFixed(0)
      } s after it went down (${RECEIVER_DOWN} s outage; retry schedule 5 s, 5 min, 30 min, ...)`
    ]
  ]
  const byStatus = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, c]) => `${s}: ${c}`).join(", ")
  const table = [
    `${
      new Date().toISOString().slice(0, 10)
    }, \`npm run chaos\`: ${SECONDS} s of load on two host processes, ${kills} SIGKILLs (each restarted), PostgreSQL stopped for 8 s, receiver down ${RECEIVER_DOWN} s; ${accepted.size} searches accepted, ${reads} reads; answers ${byStatus}`,
    "",
    "| check | result | figures |",
    "|---|---|---|",
    ...checks.map(([name, ok, figures]) => `| ${name} | ${ok ? "PASS" : "FAIL"} | ${figures} |`)
  ].join("\n")
  console.log(table)
  if (unexpected5xx.length > 0) console.log(unexpected5xx.slice(0, 10).join("\n"))
  if (retriesWrong.length > 0) console.log(retriesWrong.slice(0, 10).join("\n"))
  if (!process.argv.includes("--no-write")) writeSection("RELIABILITY.md", "chaos", table)
  process.exit(checks.every(([, ok]) => ok) ? 0 : 1)
}

await main()
