/**
 * The host's database: PostgreSQL through `@effect/sql-pg` when `DATABASE_URL` is set, otherwise an
 * embedded PostgreSQL (PGlite) behind its socket server on a loopback port, reached by the same
 * client, so one set of migrations and repositories serves both. PGlite runs a single session:
 * the client keeps one connection, so transactions queue instead of interleaving.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { PGlite, type PGliteOptions } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Config, Data, Effect, Layer, Option, Redacted, String as Str } from "effect"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/** A `jsonb` column's document, whether the client handed it back parsed or as text. */
export const jsonColumn = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : v)

/** The embedded database could not be opened or served. */
export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{ readonly cause: unknown }> {}

// Column names are camel-cased in results; JSON documents (stored wire resources) are left as they are.
const clientOptions = {
  transformQueryNames: Str.camelToSnake,
  transformResultNames: Str.snakeToCamel,
  transformJson: false
} as const

/** A PostgreSQL server at `url`. */
export const layerPostgres = (url: Redacted.Redacted, options: { readonly maxConnections?: number } = {}) =>
  PgClient.layer({
    url,
    ...clientOptions,
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections })
  })

/** PGlite's WebAssembly, compiled once per process and shared by every embedded database. */
let compiled:
  | Promise<{ pgliteWasmModule: object; initdbWasmModule: object; fsBundle: Blob }>
  | undefined

/** The global `WebAssembly` (the project's `lib` has neither its types nor the value). */
const WA = (globalThis as unknown as {
  readonly WebAssembly: { readonly compile: (bytes: Uint8Array) => Promise<object> }
}).WebAssembly

const wasm = () => {
  if (compiled === undefined) {
    const dir = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"))
    compiled = Promise.all([
      WA.compile(readFileSync(join(dir, "pglite.wasm"))),
      WA.compile(readFileSync(join(dir, "initdb.wasm")))
    ]).then(([pgliteWasmModule, initdbWasmModule]) => ({
      pgliteWasmModule,
      initdbWasmModule,
      fsBundle: new Blob([readFileSync(join(dir, "pglite.data"))])
    }))
  }
  return compiled
}

/**
 * Starts compiling PGlite's WebAssembly in the background (it is shared by every embedded database
 * of the process); callers with other work to do first overlap it with that work.
 */
export const warmEmbedded = (): void => {
  void wasm()
}

/** The version of PGlite the embedded databases run (a dumped data directory is only good for it). */
export const embeddedVersion = (): string => {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json")
    if (!existsSync(file)) continue
    const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string }
    if (pkg.name === "@electric-sql/pglite" && pkg.version !== undefined) return pkg.version
  }
  return "unknown"
}

const openEmbedded = (dataDir: string | undefined, template: Blob | undefined) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true })
        return PGlite.create(dataDir === undefined ? undefined : dataDir, {
          ...(await wasm()),
          ...(template === undefined ? {} : { loadDataDir: template })
        } as PGliteOptions)
      },
      catch: (cause) => new EmbeddedDatabaseError({ cause })
    }),
    (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
  )

/**
 * Serves a PGlite on an ephemeral loopback port for the scope's lifetime; the client layer for it
 * (one connection: PGlite runs one session, so transactions queue instead of interleaving).
 */
const serveEmbedded = (db: PGlite) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const s = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 1 })
          await s.start()
          return s
        },
        catch: (cause) => new EmbeddedDatabaseError({ cause })
      }),
      (s) => Effect.promise(() => s.stop()).pipe(Effect.ignore)
    ),
    (server) =>
      PgClient.layer({
        url: Redacted.make(`postgres://postgres@${server.getServerConn()}/postgres`),
        ...clientOptions,
        maxConnections: 1
      })
  )

/**
 * An embedded PostgreSQL (PGlite): on disk under `dataDir`, or in memory when it is undefined,
 * optionally started from a `template` (a data directory dumped by `embeddedTemplate`, which skips
 * initdb and the migrations it holds). Served on an ephemeral loopback port for the layer's lifetime.
 */
export const layerEmbedded = (dataDir: string | undefined, options: { readonly template?: Blob } = {}) =>
  Layer.unwrapScoped(Effect.flatMap(openEmbedded(dataDir, options.template), serveEmbedded))

/**
 * A template for in-memory embedded databases: a fresh PGlite after `prepare` ran on it (the
 * migrations, say), dumped. Databases started from it open in a fraction of initdb's time.
 */
export const embeddedTemplate = <E>(
  prepare: Effect.Effect<unknown, E, PgClient.PgClient | SqlClient.SqlClient>,
  compression: "none" | "gzip" = "none"
) =>
  Effect.scoped(Effect.gen(function*() {
    const db = yield* openEmbedded(undefined, undefined)
    yield* Effect.scoped(prepare.pipe(Effect.provide(yield* serveEmbedded(db))))
    return yield* Effect.tryPromise({
      try: () => db.dumpDataDir(compression),
      catch: (cause) => new EmbeddedDatabaseError({ cause })
    })
  }))

/**
 * A scratch database on the PostgreSQL server at `adminUrl`: created with a unique name for the
 * layer's lifetime and dropped after it (test suites and benchmarks, so runs never collide).
 */
export const layerScratch = (adminUrl: string) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const name = `osiris_scratch_${randomBytes(6).toString("hex")}`
    const admin = layerPostgres(Redacted.make(adminUrl), { maxConnections: 1 })
    const runAdmin = <A, E>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
      Effect.flatMap(SqlClient.SqlClient, f).pipe(Effect.provide(admin), Effect.scoped)
    yield* Effect.acquireRelease(
      runAdmin((sql) => sql.unsafe(`create database ${name}`)),
      () => runAdmin((sql) => sql.unsafe(`drop database if exists ${name} with (force)`)).pipe(Effect.orDie)
    )
    const u = new URL(adminUrl)
    u.pathname = `/${name}`
    return layerPostgres(Redacted.make(u.toString()))
  }))

/** Which database to use, from the environment. */
export const config = Config.all({
  url: Config.redacted("DATABASE_URL").pipe(
    Config.option,
    Config.withDescription("PostgreSQL URL; when unset, an embedded PostgreSQL (PGlite) is used")
  ),
  dataDir: Config.string("OSIRIS_DATA_DIR").pipe(
    Config.withDefault(".osiris"),
    Config.withDescription("Where the embedded database keeps its files (\"memory\" keeps nothing)")
  )
})

/** The database chosen by `DATABASE_URL` / `OSIRIS_DATA_DIR`. */
export const layerConfig: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown> = Layer.unwrapEffect(
  Effect.map(config, ({ dataDir, url }) =>
    // An empty DATABASE_URL (as shells and CI often export) means unset.
    Option.isSome(url) && Redacted.value(url.value).trim() !== ""
      ? layerPostgres(url.value)
      : layerEmbedded(dataDir === "memory" ? undefined : `${dataDir.replace(/\/+$/, "")}/pg`))
)
