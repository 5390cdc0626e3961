/**
 * Shared by the operator commands (`npm run fuzz`, `npm run chaos`, `npm run bench:http`): real host
 * processes (`npm start`'s program) on a PostgreSQL database made for the run and dropped after it,
 * keys made in that database, and queries on it.
 */
import type { SqlClient } from "@effect/sql"
import { SqlClient as Sql } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { ApiKeys, Database, Host } from "../src/index.js"

export const ROOT = join(import.meta.dirname, "..", "..", "..")

/** The PostgreSQL server the commands use (DATABASE_URL, else the machine's at 127.0.0.1:5432). */
export const adminUrl = () => process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** A running host process. */
export interface HostProcess {
  readonly proc: ChildProcess
  readonly base: string
  readonly pid: number
  /** Everything it printed. */
  readonly output: () => string
  /** Resolves when the process has exited. */
  readonly exited: Promise<number | null>
}

/** Starts the host program on a free port against `databaseUrl`; resolves when it listens. */
export const startHost = (databaseUrl: string, env: Record<string, string> = {}) =>
  new Promise<HostProcess>((resolve, reject) => {
    const proc = spawn(process.execPath, ["packages/http/bin/host.mjs"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: "0", OSIRIS_RATE_LIMIT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)))
    const timer = setTimeout(() => reject(new Error(`the host did not start:\n${out}`)), 60_000)
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      if (out.length > 1_000_000) out = out.slice(-100_000)
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        resolve({ proc, base: m[1]!, pid: proc.pid!, output: () => out, exited })
      }
    })
    proc.stderr!.on("data", (d: Buffer) => (out += d.toString()))
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the host exited (${code}):\n${out}`))
    })
  })

/** A scratch database with the host's migrations; keys and queries on it. */
export const scratch = async () => {
  const runtime = ManagedRuntime.make(Host.layerRepos.pipe(Layer.provideMerge(Database.layerScratch(adminUrl()))))
  const url = await runtime.runPromise(Effect.map(PgClient.PgClient, (pg) => Redacted.value(pg.config.url!)))
  return {
    url,
    /** A new application with a sandbox and a production key. */
    newKeys: (name = `ops-${Math.random().toString(36).slice(2)}`) =>
      runtime.runPromise(Effect.gen(function*() {
        const keys = yield* ApiKeys.ApiKeysRepo
        const app = yield* keys.ensureApplication(name)
        const sandbox = yield* keys.create({ applicationId: app.id, environment: "SANDBOX", name: "s", scopes: [] })
        const live = yield* keys.create({ applicationId: app.id, environment: "PRODUCTION", name: "p", scopes: [] })
        return { app, sandbox: Redacted.value(sandbox.key), live: Redacted.value(live.key) }
      })),
    /** A query on a connection of its own (so it works after the database was restarted under the run). */
    query: <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
      Effect.runPromise(
        Effect.flatMap(Sql.SqlClient, f).pipe(
          Effect.provide(Database.layerPostgres(Redacted.make(url), { maxConnections: 1 })),
          Effect.scoped
        )
      ),
    dispose: () => runtime.dispose()
  }
}
