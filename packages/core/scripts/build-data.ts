/**
 * Builds the reference data shipped inside @osiris/core (src/data/*.json) from the public
 * dictionaries in ../shared/data (see each folder's PROVENANCE.md and packages/core/DATA-NOTICE.md).
 *
 *   npx tsx packages/core/scripts/build-data.ts [path/to/shared/data]
 *
 * The data is kept raw (variants as written); normalisation happens when the core loads it, with
 * the same functions that normalise requests.
 */
import { parse as parseCsv } from "csv-parse/sync"
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { parse as parseYaml } from "yaml"

const root = resolve(process.argv[2] ?? join(import.meta.dirname, "..", "..", "..", "..", "shared", "data"))
const out = join(import.meta.dirname, "..", "src", "data")
mkdirSync(out, { recursive: true })

const read = (...p: Array<string>) => readFileSync(join(root, ...p), "utf8")
const write = (name: string, value: unknown) => {
  writeFileSync(join(out, name), JSON.stringify(value) + "\n")
  console.log(`wrote src/data/${name}`)
}
const lines = (text: string) =>
  text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0 && !l.startsWith("#"))

// --- Legal forms: rigour org_types (display/compare + aliases) merged with libpostal company types.
{
  interface OrgType {
    display?: string
    compare?: string
    generic?: string
    aliases?: Array<string>
  }
  const types = (parseYaml(read("rigour-name-resources", "org_types.yml")) as { types: Array<OrgType> }).types
  const forms: Array<{ key: string; generic: string | null; aliases: Array<string> }> = []
  for (const t of types) {
    const key = t.compare ?? t.display
    if (key === undefined) continue
    const aliases = [t.display, t.compare, ...(t.aliases ?? [])].filter((a): a is string => typeof a === "string")
    forms.push({ key, generic: t.generic ?? null, aliases })
  }
  for (const file of readdirSync(join(root, "libpostal-dictionaries", "company_types")).sort()) {
    for (const line of lines(read("libpostal-dictionaries", "company_types", file))) {
      const variants = line.split("|").map((v) => v.trim()).filter((v) => v.length > 0)
      forms.push({ key: variants[0]!, generic: null, aliases: variants })
    }
  }
  write("legal-forms.json", forms)
}

// --- Descriptor symbols (intl = international ...) and name stopwords, from rigour.
{
  const symbols = parseYaml(read("rigour-name-resources", "symbols.yml")) as Record<
    string,
    Record<string, Array<unknown>>
  >
  const org: Record<string, Array<string>> = {}
  for (const [k, vs] of Object.entries(symbols.org_symbols ?? {})) org[k] = vs.map(String)
  write("org-symbols.json", org)
  const stop = parseYaml(read("rigour-name-resources", "stopwords.yml")) as Record<string, Array<unknown>>
  write("stopwords.json", {
    orgPrefixes: (stop.ORG_NAME_PREFIXES ?? []).map(String),
    personPrefixes: (stop.PERSON_NAME_PREFIXES ?? []).map(String),
    splitPhrases: (stop.NAME_SPLIT_PHRASES ?? []).map(String),
    personalTitles: lines(read("libpostal-dictionaries", "en", "personal_titles.txt")).map((l) => l.split("|")),
    personalSuffixes: lines(read("libpostal-dictionaries", "en", "personal_suffixes.txt")).map((l) => l.split("|"))
  })
}

// --- USPS Pub 28 C1 street suffixes, plus libpostal variants of the same suffixes.
{
  const c1 = JSON.parse(read("usps-pub28", "pub28_c1_street_suffixes.json")) as Array<
    { primary: string; common: Array<string>; standard: string }
  >
  const suffix: Record<string, string> = {}
  for (const row of c1) {
    for (const v of [row.primary, row.standard, ...row.common]) suffix[v.toUpperCase()] ??= row.standard
  }
  let added = 0
  for (const line of lines(read("libpostal-dictionaries", "en", "street_types.txt"))) {
    const variants = line.split("|").map((v) => v.trim().toUpperCase())
    const standard = variants.map((v) => suffix[v]).find((s) => s !== undefined)
    if (standard === undefined) continue
    for (const v of variants) {
      if (v.includes(" ") || suffix[v] !== undefined) continue
      suffix[v] = standard
      added++
    }
  }
  console.log(`street suffixes: ${Object.keys(suffix).length} variants (${added} from libpostal)`)
  write("street-suffixes.json", suffix)
}

// --- Secondary unit designators: USPS Pub 28 Appendix C2 standard abbreviations (transcribed; no
// data file of C2 exists in the shared data), with variants from the libpostal unit dictionaries.
{
  const c2: Record<string, { standard: string; range: boolean }> = {
    APARTMENT: { standard: "APT", range: true },
    BASEMENT: { standard: "BSMT", range: false },
    BUILDING: { standard: "BLDG", range: true },
    DEPARTMENT: { standard: "DEPT", range: true },
    FLOOR: { standard: "FL", range: true },
    FRONT: { standard: "FRNT", range: false },
    HANGAR: { standard: "HNGR", range: true },
    KEY: { standard: "KEY", range: true },
    LOBBY: { standard: "LBBY", range: false },
    LOT: { standard: "LOT", range: true },
    LOWER: { standard: "LOWR", range: false },
    OFFICE: { standard: "OFC", range: true },
    PENTHOUSE: { standard: "PH", range: false },
    PIER: { standard: "PIER", range: true },
    REAR: { standard: "REAR", range: false },
    ROOM: { standard: "RM", range: true },
    SIDE: { standard: "SIDE", range: false },
    SLIP: { standard: "SLIP", range: true },
    SPACE: { standard: "SPC", range: true },
    STOP: { standard: "STOP", range: true },
    SUITE: { standard: "STE", range: true },
    TRAILER: { standard: "TRLR", range: true },
    UNIT: { standard: "UNIT", range: true },
    UPPER: { standard: "UPPR", range: false }
  }
  const units: Record<string, { standard: string; range: boolean }> = {}
  for (const [name, u] of Object.entries(c2)) {
    units[name] = u
    units[u.standard] = u
  }
  for (const file of ["unit_types_numbered.txt", "unit_types_standalone.txt", "level_types_numbered.txt"]) {
    for (const line of lines(read("libpostal-dictionaries", "en", file))) {
      const variants = line.split("|").map((v) => v.trim().toUpperCase())
      const u = c2[variants[0]!]
      if (u === undefined) continue
      for (const v of variants) if (!v.includes(" ")) units[v] ??= u
    }
  }
  units["#"] = { standard: "#", range: true }
  write("units.json", units)
}

// --- Directionals (the eight USPS ones) and US states.
{
  const canonical: Record<string, string> = {
    north: "N",
    south: "S",
    east: "E",
    west: "W",
    northeast: "NE",
    northwest: "NW",
    southeast: "SE",
    southwest: "SW"
  }
  const dirs: Record<string, string> = {}
  for (const line of lines(read("libpostal-dictionaries", "en", "directionals.txt"))) {
    const variants = line.split("|").map((v) => v.trim())
    const d = canonical[variants[0]!]
    if (d === undefined) continue
    for (const v of variants) if (!v.includes(" ")) dirs[v.toUpperCase().replace(/\.$/, "")] ??= d
  }
  write("directionals.json", dirs)
  const states = parseYaml(read("libpostal-dictionaries", "states", "us.yaml")) as Record<
    string,
    Record<string, string>
  >
  const out: Record<string, Array<string>> = {}
  for (const [code, names] of Object.entries(states)) out[code] = [...new Set(Object.values(names).map(String))]
  write("states.json", out)
}

// --- ZIP codes: GeoNames US table plus territories and military ZIPs. "zip|city|state|lat|lon".
{
  const rows: Map<string, string> = new Map()
  const tsv = read("us-zip-codes", "geonames_us_zip_codes.tsv").split("\n").slice(1)
  for (const line of tsv) {
    const c = line.split("\t")
    if (c.length < 11) continue
    const [zip, city, state, lat, lon] = [c[1]!, c[2]!, c[4]!, c[9]!, c[10]!]
    if (!rows.has(zip)) rows.set(zip, [zip, city, state, lat, lon].join("|"))
  }
  const extra = parseCsv(read("us-zip-codes", "zipcodes_npm_territories_military.csv"), { columns: true }) as Array<
    Record<string, string>
  >
  for (const r of extra) {
    const existing = rows.get(r.zip!)
    if (existing === undefined || existing.split("|")[2] === "") {
      rows.set(r.zip!, [r.zip, r.city, r.state, r.latitude, r.longitude].join("|"))
    }
  }
  write("zips.json", [...rows.values()].sort())
}

// --- Nicknames, EIN prefixes.
{
  const pairs = parseCsv(read("nicknames", "names.csv"), { columns: true }) as Array<Record<string, string>>
  write("nicknames.json", pairs.map((p) => [p.name1, p.name2]))
  const ein = parseCsv(read("irs-ein-prefixes", "ein_prefixes.csv"), { columns: true }) as Array<Record<string, string>>
  write("ein-prefixes.json", ein.map((r) => r.prefix))
}

// --- OFAC SDN list (legacy CSV): primary names, aliases and programs.
{
  const clean = (v: string | undefined) => (v === undefined || v.trim() === "-0-" ? "" : v.trim())
  const parse = (file: string) =>
    parseCsv(read("ofac-sdn-2021-07", file).replace(/\x1a\s*$/, ""), {
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true
    }) as Array<Array<string>>
  const entries = new Map<
    string,
    { id: string; name: string; type: string; programs: Array<string>; aliases: Array<string> }
  >()
  for (const r of parse("sdn.csv")) {
    const id = clean(r[0])
    if (id === "") continue
    const type = clean(r[2]) || "entity"
    const programs = clean(r[3]).split(/\]\s*\[|;/).map((p) => p.replace(/[[\]]/g, "").trim()).filter((p) =>
      p.length > 0
    )
    entries.set(id, { id, name: clean(r[1]), type, programs, aliases: [] })
  }
  for (const r of parse("alt.csv")) {
    const e = entries.get(clean(r[0]))
    const alias = clean(r[3])
    if (e !== undefined && alias !== "") e.aliases.push(alias)
  }
  write("ofac-sdn.json", [...entries.values()])
}

// --- NAICS 2022: six-digit industries with their titles and index entries (the classifier's documents).
{
  const codes = parseCsv(read("naics", "naics_2022_codes.csv"), { columns: true, skip_empty_lines: true }) as Array<
    { code: string; title: string; level: string }
  >
  const index = parseCsv(read("naics", "2022_NAICS_Index_File.csv"), {
    columns: true,
    skip_empty_lines: true
  }) as Array<
    Record<string, string>
  >
  const industries = new Map<string, { code: string; title: string; entries: Array<string> }>()
  for (const c of codes) {
    if (/^\d{6}$/.test(c.code)) industries.set(c.code, { code: c.code, title: c.title.trim(), entries: [] })
  }
  for (const row of index) {
    const code = (row["NAICS22"] ?? "").trim()
    const entry = (row["INDEX ITEM DESCRIPTION"] ?? "").trim()
    const industry = industries.get(code)
    if (industry !== undefined && entry !== "" && entry !== industry.title) industry.entries.push(entry)
  }
  write("naics.json", [...industries.values()].sort((a, b) => a.code.localeCompare(b.code)))
}
