/**
 * The `osiris` command line. `osiris verify --registry <businesses.jsonl> [--input <requests.jsonl>]
 * [--output <results.jsonl>]` verifies requests against a registry file; standard input and output
 * by default, with a progress line on standard error when it is a terminal.
 * `osiris keys create ...` makes an API key; `osiris registry import <file>` loads the production registry.
 */
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { NodeStream } from "@effect/platform-node"
import { Engine, Registry } from "@osiris/core"
import { Console, Effect, Layer, Option, Redacted, Stream } from "effect"
import { ApiKeysRepo, SCOPES } from "./ApiKeys/Repo.js"
import { readRegistry, verifyLines } from "./Batch.js"
import * as Host from "./Host.js"
import * as RegistryDatabase from "./Registry/Database.js"
import * as Database from "./Storage/Database.js"

const lines = <E, R>(bytes: Stream.Stream<Uint8Array, E, R>) => bytes.pipe(Stream.decodeText(), Stream.splitLines)

const registryOption = Options.file("registry", { exists: "yes" }).pipe(
  Options.withDescription("Registry: one contract Business record per line (JSONL); only id and name are required")
)
const inputOption = Options.file("input", { exists: "yes" }).pipe(
  Options.withDescription("Requests, one Form-1 (or Form-2) request per line; standard input when absent"),
  Options.optional
)
const outputOption = Options.file("output").pipe(
  Options.withDescription("Where to write one Search per line; standard output when absent"),
  Options.optional
)
const baseUrlOption = Options.text("base-url").pipe(
  Options.withDescription("{base_url} used in the URLs of the Searches"),
  Options.withDefault("http://localhost:8080")
)

/** A progress line on standard error, when it is a terminal. */
const progress = (total: number | undefined) => {
  const tty = process.stderr.isTTY === true
  let done = 0
  let last = 0
  const started = Date.now()
  const draw = (final: boolean) => {
    if (!tty) return
    const now = Date.now()
    if (!final && now - last < 100) return
    last = now
    const rate = done / Math.max((now - started) / 1000, 0.001)
    const bar = total === undefined
      ? ""
      : `[${"#".repeat(Math.round((done / Math.max(total, 1)) * 30)).padEnd(30, "-")}] ${done}/${total} `
    process.stderr.write(
      `\r${bar}${total === undefined ? `${done} searches ` : ""}(${rate.toFixed(0)}/s)${final ? "\n" : ""}`
    )
  }
  return { tick: () => (done++, draw(false)), end: () => draw(true) }
}

/** `osiris verify`. */
export const verify = Command.make(
  "verify",
  { registry: registryOption, input: inputOption, output: outputOption, baseUrl: baseUrlOption },
  ({ baseUrl, input, output, registry }) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const { records, rejected } = yield* readRegistry(lines(fs.stream(registry)))
      for (const r of rejected.slice(0, 20)) yield* Console.error(`registry line ${r.line} skipped: ${r.reason}`)
      if (rejected.length > 20) yield* Console.error(`... and ${rejected.length - 20} more registry lines skipped`)
      const total = Option.isSome(input)
        ? (yield* fs.readFileString(input.value)).split("\n").filter((l) => l.trim().length > 0).length
        : undefined
      const requests = Option.isSome(input)
        ? lines(fs.stream(input.value))
        : lines(NodeStream.stdin)
      const bar = progress(total)
      const results = verifyLines(requests).pipe(
        Stream.tap(() => Effect.sync(bar.tick)),
        Stream.map((line) => `${line}\n`),
        Stream.provideLayer(
          Engine.Engine.layerDefaults({ baseUrl: baseUrl.replace(/\/+$/, "") }, Registry.Registry.layerMemory(records))
        )
      )
      if (Option.isSome(output)) {
        yield* Stream.run(results.pipe(Stream.encodeText), fs.sink(output.value))
      } else {
        yield* Stream.runForEach(results, (line) =>
          Effect.async<void>((resume) => {
            if (process.stdout.write(line)) resume(Effect.void)
            else process.stdout.once("drain", () => resume(Effect.void))
          }))
      }
      bar.end()
    })
).pipe(Command.withDescription("Verify requests (JSONL) against a registry (JSONL), one Search per request"))

/** `osiris keys create`: a new API key for an application (created if needed), printed once. */
export const keysCreate = Command.make(
  "create",
  {
    app: Options.text("app").pipe(Options.withDescription("Application name (created when it does not exist)")),
    environment: Options.choice("environment", ["sandbox", "production"]).pipe(
      Options.withDescription("Environment the key works in")
    ),
    scopes: Options.text("scopes").pipe(
      Options.withDescription(`Comma-separated scopes (default all: ${SCOPES.join(",")})`),
      Options.optional
    ),
    name: Options.text("name").pipe(Options.withDefault("cli"), Options.withDescription("A name for the key")),
    json: Options.boolean("json").pipe(
      Options.withDescription("Print {\"id\",\"key\",\"app\",\"environment\"} as JSON")
    )
  },
  ({ app, environment, json, name, scopes }) =>
    Effect.gen(function*() {
      const requested = Option.match(scopes, {
        onNone: () => [...SCOPES],
        onSome: (s) => s.split(",").map((x) => x.trim()).filter((x) => x)
      })
      const unknown = requested.filter((x) => !(SCOPES as ReadonlyArray<string>).includes(x))
      if (unknown.length > 0) {
        return yield* Effect.fail(new Error(`unknown scopes: ${unknown.join(", ")}; known: ${SCOPES.join(", ")}`))
      }
      const keys = yield* ApiKeysRepo
      const application = yield* keys.ensureApplication(app)
      const env = environment === "sandbox" ? "SANDBOX" : "PRODUCTION"
      const created = yield* keys.create({ applicationId: application.id, environment: env, name, scopes: requested })
      const key = Redacted.value(created.key)
      if (json) yield* Console.log(JSON.stringify({ id: created.record.id, key, app, environment: env }))
      else yield* Console.log(`Created a ${environment} key for "${app}" (shown once):\n\n  ${key}\n`)
    }).pipe(Effect.provide(Host.layerRepos.pipe(Layer.provide(Database.layerConfig))))
).pipe(Command.withDescription("Create an API key (the key is printed once; only its hash is stored)"))

/** `osiris keys`. */
export const keys = Command.make("keys").pipe(
  Command.withDescription("Manage API keys"),
  Command.withSubcommands([keysCreate])
)

/**
 * `osiris registry import <businesses.jsonl>`: loads contract Business records into the production
 * registry in the database (DATABASE_URL, else the embedded default), streaming, idempotent on `id`;
 * progress on standard error; a summary as JSON on standard output; refused lines on standard error.
 */
export const registryImport = Command.make(
  "import",
  { file: Args.file({ name: "businesses.jsonl", exists: "yes" }) },
  ({ file }) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const started = Date.now()
      const report = yield* RegistryDatabase.importLines(lines(fs.stream(file)), {
        progress: (imported, rejected) =>
          Effect.sync(() => {
            const rate = imported / Math.max((Date.now() - started) / 1000, 0.001)
            process.stderr.write(`imported ${imported} records (${rate.toFixed(0)}/s), ${rejected} refused\n`)
          })
      })
      for (const r of report.rejected.slice(0, 20)) process.stderr.write(`line ${r.line}: ${r.reason}\n`)
      if (report.rejected.length > 20) process.stderr.write(`... and ${report.rejected.length - 20} more\n`)
      yield* Console.log(JSON.stringify({ imported: report.imported, rejected: report.rejected.length }))
    }).pipe(Effect.provide(Host.layerRepos.pipe(Layer.provideMerge(Database.layerConfig))))
).pipe(Command.withDescription("Import contract Business records (JSONL) into the production registry"))

/** `osiris registry`. */
export const registry = Command.make("registry").pipe(
  Command.withDescription("Manage the production registry"),
  Command.withSubcommands([registryImport])
)

/** The `osiris` root command. */
export const osiris = Command.make("osiris").pipe(
  Command.withDescription("Osiris business verification"),
  Command.withSubcommands([verify, keys, registry])
)

/** Runs the command line with the given argv (as `process.argv`). */
export const run = Command.run(osiris, { name: "osiris", version: "0.1.0" })
