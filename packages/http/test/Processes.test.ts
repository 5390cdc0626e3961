/**
 * Several host processes on one PostgreSQL (real `npm start` processes, a scratch database at
 * DATABASE_URL's server; skipped without it, since the embedded default serves one process):
 * idempotency holds across processes, and a process killed with SIGKILL mid-work loses nothing.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Sandbox } from "@osiris/core"
import { HostProcess } from "@osiris/testkit"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeys, Database, Host } from "../src/index.js"

const url = process.env.DATABASE_URL
type Running = HostProcess.HostProcess

/** `npm start`'s program against `databaseUrl`, leases of 3 s (the testkit's `HostProcess`). */
const startHost = (databaseUrl: string) =>
  HostProcess.start({ DATABASE_URL: databaseUrl, OSIRIS_LEASE_SECONDS: "3", OSIRIS_RATE_LIMIT: "1000" })

// A business of the host's sandbox registry (the fixture registry `npm start` serves).
const sample = Sandbox.registry()[0]!
const request = {
  name: sample.name,
  address: `${sample.addresses[0]!.street}, ${sample.addresses[0]!.city}, ${sample.addresses[0]!.state} ${
    sample.addresses[0]!.zip
  }`
}

describe.skipIf(url === undefined || url === "")("two host processes on one PostgreSQL", () => {
  const hosts: Array<Running> = []
  let runtime: ManagedRuntime.ManagedRuntime<Host.Repos | SqlClient.SqlClient | PgClient.PgClient, unknown>
  let databaseUrl = ""

  const newKey = () =>
    runtime.runPromise(Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeysRepo
      const app = yield* keys.ensureApplication(`procs-${Math.random().toString(36).slice(2)}`)
      const k = yield* keys.create({ applicationId: app.id, environment: "SANDBOX", name: "t", scopes: [] })
      return { app, key: Redacted.value(k.key) }
    }))
  const query = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
  const post = (base: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/searches`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })

  beforeAll(async () => {
    runtime = ManagedRuntime.make(Host.layerRepos.pipe(Layer.provideMerge(Database.layerScratch(url!))))
    databaseUrl = await runtime.runPromise(
      Effect.map(PgClient.PgClient, (pg) => Redacted.value(pg.config.url!))
    )
    hosts.push(...(await Promise.all([startHost(databaseUrl), startHost(databaseUrl)])))
  }, 120_000)
  afterAll(async () => {
    for (const h of hosts) h.proc.kill("SIGKILL")
    await runtime.dispose()
  })

  it("50 concurrent requests with one Idempotency-Key, spread over both, create exactly one search", async () => {
    const { app, key } = await newKey()
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(hosts[i % 2]!.base, key, request, { "idempotency-key": "one-key" }))
    )
    const bodies = await Promise.all(responses.map((r) => r.json() as Promise<{ id: string; state: string }>))
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1)
    expect(responses.every((r) => r.status === 201)).toBe(true)
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(49)
    const rows = await query<{ n: number }>((sql) =>
      sql`select count(*)::int as n from searches where application_id = ${app.id}`
    )
    expect(rows[0]!.n).toBe(1)
    // The same key with another body: 422, on either process.
    const reused = await post(hosts[1]!.base, key, { ...request, name: "Another Name" }, {
      "idempotency-key": "one-key"
    })
    expect(reused.status).toBe(422)
    expect(((await reused.json()) as { detail: Array<{ type: string }> }).detail[0]!.type).toBe(
      "idempotency_key_reused"
    )
  }, 60_000)

  it(
    "a process killed with SIGKILL amid 200 asynchronous searches: the survivor completes all, none twice",
    async () => {
      const { app, key } = await newKey()
      const [victim, survivor] = hosts as [Running, Running]
      const ids: Array<string> = []
      let next = 0
      const lane = async () => {
        while (next < 200) {
          next++
          const r = await post(victim.base, key, request, { prefer: "respond-async" })
          expect(r.status).toBe(202)
          ids.push(((await r.json()) as { id: string }).id)
        }
      }
      await Promise.all(Array.from({ length: 25 }, lane))
      victim.proc.kill("SIGKILL")
      const atKill = await query<{ state: string; n: number }>((sql) =>
        sql`select state, count(*)::int as n from searches where application_id = ${app.id} group by state`
      )
      expect(ids).toHaveLength(200)
      // Wait for the survivor (it takes over expired leases after 3 s).
      const deadline = Date.now() + 60_000
      for (;;) {
        const open = await query<{ n: number }>((sql) =>
          sql`select count(*)::int as n from searches where application_id = ${app.id}
          and state in ('PENDING', 'EXECUTING')`
        )
        if (open[0]!.n === 0) break
        if (Date.now() > deadline) throw new Error(`searches still open: ${JSON.stringify(atKill)}`)
        await new Promise((r) => setTimeout(r, 200))
      }
      const states = await query<{ id: string; state: string; attempts: number }>((sql) =>
        sql`select id, state, attempts from searches where application_id = ${app.id}`
      )
      expect(states).toHaveLength(200)
      expect(new Set(states.map((s) => s.id))).toEqual(new Set(ids))
      expect(states.every((s) => s.state === "COMPLETED")).toBe(true)
      // Finished once each: one BusinessSearch.completed event per search (written with the finish).
      const finished = await query<{ id: string; n: number }>((sql) =>
        sql`select (payload::jsonb -> 'data' ->> 'id') as id, count(*)::int as n from webhook_events
        where application_id = ${app.id} and type = 'BusinessSearch.completed' group by 1`
      )
      expect(finished).toHaveLength(200)
      expect(finished.every((f) => f.n === 1)).toBe(true)
      const open = atKill.filter((s) => s.state === "PENDING" || s.state === "EXECUTING").reduce((a, s) => a + s.n, 0)
      console.log(
        `SIGKILL: ${open} of 200 searches were not finished when the process died; ${
          states.filter((s) => s.attempts > 1).length
        } were claimed more than once; all 200 completed once`
      )
      // The survivor is still serving.
      expect((await fetch(`${survivor.base}/health/ready`)).status).toBe(200)
    },
    120_000
  )
})

describe.skipIf(url === undefined || url === "")("graceful shutdown", () => {
  it("SIGTERM: the host stops, finishing or handing back its work; nothing is left claimed", async () => {
    const runtime = ManagedRuntime.make(Host.layerRepos.pipe(Layer.provideMerge(Database.layerScratch(url!))))
    try {
      const databaseUrl = await runtime.runPromise(
        Effect.map(PgClient.PgClient, (pg) => Redacted.value(pg.config.url!))
      )
      const key = await runtime.runPromise(Effect.gen(function*() {
        const keys = yield* ApiKeys.ApiKeysRepo
        const app = yield* keys.ensureApplication("shutdown")
        const created = yield* keys.create({ applicationId: app.id, environment: "SANDBOX", name: "t", scopes: [] })
        return Redacted.value(created.key)
      }))
      const host = await startHost(databaseUrl)
      const accepted = await Promise.all(Array.from({ length: 60 }, () =>
        fetch(`${host.base}/searches`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json", prefer: "respond-async" },
          body: JSON.stringify(request)
        }).then((r) => r.status)))
      expect(accepted.every((s) => s === 202)).toBe(true)
      const started = Date.now()
      const code = await host.stop()
      expect(Date.now() - started).toBeLessThan(15_000)
      expect(code === 0 || code === 130 || code === 143).toBe(true)
      const states = await runtime.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{ state: string; leased: boolean }>`select state, lease_owner is not null as leased from searches`
        )
      )
      expect(states).toHaveLength(60)
      expect(states.filter((s) => s.state === "EXECUTING" || s.leased)).toEqual([])
      expect(states.every((s) => s.state === "COMPLETED" || s.state === "PENDING")).toBe(true)
    } finally {
      await runtime.dispose()
    }
  }, 120_000)
})

describe.skipIf(url === undefined || url === "")("storage down", () => {
  it("the host answers 503 while its database refuses connections, and recovers by itself", async () => {
    const runtime = ManagedRuntime.make(Host.layerRepos.pipe(Layer.provideMerge(Database.layerScratch(url!))))
    const admin = ManagedRuntime.make(Database.layerPostgres(Redacted.make(url!), { maxConnections: 1 }))
    let host: Running | undefined
    try {
      const databaseUrl = await runtime.runPromise(
        Effect.map(PgClient.PgClient, (pg) => Redacted.value(pg.config.url!))
      )
      const name = new URL(databaseUrl).pathname.slice(1)
      const key = await runtime.runPromise(Effect.gen(function*() {
        const keys = yield* ApiKeys.ApiKeysRepo
        const app = yield* keys.ensureApplication("down")
        const created = yield* keys.create({ applicationId: app.id, environment: "SANDBOX", name: "t", scopes: [] })
        return Redacted.value(created.key)
      }))
      host = await startHost(databaseUrl)
      const get = (path: string) =>
        fetch(`${host!.base}${path}`, { headers: { "x-api-key": key } }).then(async (r) => {
          const text = await r.text()
          return { status: r.status, body: text === "" ? text : JSON.parse(text) }
        })
      expect((await get("/searches")).status).toBe(200)
      const adminSql = (f: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
        admin.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
      await adminSql((sql) => sql.unsafe(`alter database ${name} allow_connections false`))
      await adminSql((sql) =>
        sql.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`)
      )
      const down = await get("/searches")
      expect(down).toEqual({ status: 503, body: { detail: "Storage is unavailable." } })
      expect((await get("/health/ready")).status).toBe(503)
      await adminSql((sql) => sql.unsafe(`alter database ${name} allow_connections true`))
      const deadline = Date.now() + 20_000
      let status = 0
      while (Date.now() < deadline && (status = (await get("/searches")).status) !== 200) {
        await new Promise((r) => setTimeout(r, 250))
      }
      expect(status).toBe(200)
    } finally {
      host?.proc.kill("SIGKILL")
      await admin.dispose()
      // Drops the scratch database.
      await runtime.dispose()
    }
  }, 120_000)
})
