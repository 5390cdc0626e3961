/**
 * The migrated, empty embedded database every sandbox host starts from. It ships with the testkit
 * (data/embedded-template.tar.gz, a gzipped PGlite data directory made by `npm run fixtures`), so a
 * host skips initdb and the migrations: those take seconds, loading the dump a fraction of one. The
 * shipped dump is used only when it was made by the installed PGlite for the current migrations
 * (data/embedded-template.json); otherwise the template is built in the process, as before.
 */
import { Database, Migrations } from "@osiris/http"
import { Effect } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"

const DUMP = new URL("../data/embedded-template.tar.gz", import.meta.url)
const KEY = new URL("../data/embedded-template.json", import.meta.url)

/** What the shipped dump must have been made with. */
export interface TemplateKey {
  readonly pglite: string
  readonly migrations: ReadonlyArray<string>
}

/** The key of a template made now: the installed PGlite's version and the migrations' names. */
export const currentKey = (): TemplateKey => ({
  pglite: Database.embeddedVersion(),
  migrations: Object.keys(Migrations.migrations)
})

/** The key the shipped dump was made with (undefined when none ships). */
export const shippedKey = (): TemplateKey | undefined =>
  existsSync(KEY) ? (JSON.parse(readFileSync(KEY, "utf8")) as TemplateKey) : undefined

const sameKey = (a: TemplateKey | undefined, b: TemplateKey) =>
  a !== undefined && a.pglite === b.pglite && JSON.stringify(a.migrations) === JSON.stringify(b.migrations)

/** Builds a template in this process (initdb and the migrations). */
export const build = (compression: "none" | "gzip" = "none") =>
  Effect.runPromise(Database.embeddedTemplate(Migrations.run, compression))

let template: Promise<Blob> | undefined

/** The template of this process: the shipped dump when it is current, else one built here (once). */
export const get = (): Promise<Blob> => (template ??= sameKey(shippedKey(), currentKey()) && existsSync(DUMP)
  ? Promise.resolve(new Blob([gunzipSync(readFileSync(DUMP))]))
  : build())

/** Paths of the shipped files (for the script that writes them). */
export const files = { dump: DUMP, key: KEY }
