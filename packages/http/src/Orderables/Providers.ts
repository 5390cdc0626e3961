/**
 * The providers behind orderables, per environment. Production: website analysis (a real guarded
 * fetch), NAICS prediction (the classifier over the official titles and index, `Naics`), PEP
 * screening (the watchlist screening algorithm over the PEP list the operator configures), enhanced
 * (officers and addresses found online by an `EnhancedSource`, merged with the registry's, new ones
 * marked). Without a PEP list or an enhanced source the production orderable FAILS with a message
 * saying so. Sandbox: deterministic stand-ins with the same result shapes (no network).
 */
import { type Business, Naics, PersonName, type Search, UsAddress, Watchlist } from "@osiris/core"
import type { Guard } from "@osiris/webhooks"
import { Context, Data, Effect } from "effect"
import { readFileSync } from "node:fs"
import { basename } from "node:path"
import * as WebsiteAnalysis from "./WebsiteAnalysis.js"

/** A provider could not produce its result (the orderable FAILS with this message). */
export class ProviderFailure extends Data.TaggedError("ProviderFailure")<{ readonly message: string }> {}

/** What a provider gets: the finished search and the request it ran. */
export interface ProviderInput {
  readonly search: Search.Search
  readonly request: {
    readonly name?: string
    readonly website?: string | null
    readonly officer_names?: ReadonlyArray<string> | null
  }
}

/** Runs one option. */
export interface Providers {
  readonly run: (option: Search.Option, input: ProviderInput) => Effect.Effect<Record<string, unknown>, ProviderFailure>
}

/** The providers of each environment. */
export class OrderProviders extends Context.Tag("@osiris/http/OrderProviders")<OrderProviders, {
  readonly SANDBOX: Providers
  readonly PRODUCTION: Providers
}>() {}

/** Online-found officers and addresses of a business (the enhanced option's provider). */
export interface EnhancedSource {
  readonly name: string
  readonly find: (business: Business.Business) => Effect.Effect<{
    readonly officers: ReadonlyArray<{ readonly name: string; readonly titles: ReadonlyArray<string> }>
    readonly addresses: ReadonlyArray<string>
  }, ProviderFailure>
}

/** A PEP list: its name and entries. */
export interface PepList {
  readonly name: string
  readonly entries: ReadonlyArray<Watchlist.WatchlistEntry>
}

const businessOf = (input: ProviderInput) => {
  const b = input.search.business
  return b === null ? Effect.fail(new ProviderFailure({ message: "The search found no business." })) : Effect.succeed(b)
}

const officerNames = (input: ProviderInput) => {
  const fromRegistry = (input.search.business?.registrations ?? []).flatMap((r) => r.officers.map((o) => o.name))
  return [...new Set([...fromRegistry, ...(input.request.officer_names ?? [])])]
}

/** NAICS prediction from the business's names (same in both environments: it is deterministic). */
const naics = (input: ProviderInput) =>
  Effect.map(businessOf(input), (b) => {
    const names = [b.name, ...b.registrations.map((r) => r.name)]
    return { predictions: Naics.predict([...new Set(names)], 3) }
  })

/** PEP screening of the business's officers (and the officers the request named) over a list. */
const pep = (list: PepList | undefined) => {
  const screener = list === undefined ? undefined : Watchlist.makeScreener(list.name, list.entries)
  return (input: ProviderInput) =>
    Effect.gen(function*() {
      if (screener === undefined || list === undefined) {
        return yield* new ProviderFailure({ message: "No PEP list is configured on this host (OSIRIS_PEP_LIST)." })
      }
      const screened = officerNames(input)
      const hits = screener.screen(screened.map((name) => ({ name, kind: "person" as const })))
      return { list: list.name, screened, hits }
    })
}

const personKey = (name: string) => {
  const p = PersonName.normalize(name)
  return `${p.first ?? ""}|${p.last ?? ""}`
}
const addressKey = (line: string) => {
  const a = UsAddress.parse(line)
  return `${a.number ?? ""}|${a.streetName ?? ""}|${a.city ?? ""}|${a.state ?? ""}`
}

/** Merges found officers and addresses with the registry's; what is new is marked `new: true`. */
const enhanced = (source: EnhancedSource | undefined) => (input: ProviderInput) =>
  Effect.gen(function*() {
    if (source === undefined) {
      return yield* new ProviderFailure({ message: "No enhanced-data provider is configured on this host." })
    }
    const b = yield* businessOf(input)
    const found = yield* source.find(b)
    const knownOfficers = new Set(b.registrations.flatMap((r) => r.officers.map((o) => personKey(o.name))))
    const knownAddresses = new Set(
      b.addresses.map((a) => addressKey([a.street, a.city, a.state, a.zip].filter((x) => x).join(", ")))
    )
    return {
      source: source.name,
      officers: found.officers.map((o) => ({ ...o, new: !knownOfficers.has(personKey(o.name)) })),
      addresses: found.addresses.map((a) => ({ address: a, new: !knownAddresses.has(addressKey(a)) }))
    }
  })

const websiteOf = (input: ProviderInput) => input.search.business?.website ?? input.request.website ?? null

/** What differs between environments; everything else is the same code. */
interface ProviderParts {
  readonly analyseWebsite: (
    url: string,
    input: ProviderInput
  ) => Effect.Effect<Record<string, unknown>, ProviderFailure>
  readonly pepList?: PepList | undefined
  readonly enhancedSource?: EnhancedSource | undefined
}

/** The providers over their parts. */
const makeProviders = (parts: ProviderParts): Providers => {
  const screen = pep(parts.pepList)
  const merge = enhanced(parts.enhancedSource)
  return {
    run: (option, input) => {
      switch (option) {
        case "Order.WebsiteAnalysis": {
          const site = websiteOf(input)
          if (site === null) return Effect.fail(new ProviderFailure({ message: "There is no website to analyse." }))
          return parts.analyseWebsite(/^https?:\/\//i.test(site) ? site : `https://${site}`, input)
        }
        case "Order.NaicsPrediction":
          return naics(input)
        case "Order.Pep":
          return screen(input)
        case "Order.Enhanced":
          return merge(input)
      }
    }
  }
}

/** The production providers. */
export const production = (options: {
  readonly guard: Guard.GuardOptions
  readonly pepList?: PepList
  readonly enhancedSource?: EnhancedSource
}): Providers =>
  makeProviders({
    analyseWebsite: (url) =>
      WebsiteAnalysis.analyse(url, options.guard).pipe(
        Effect.mapError((e) => new ProviderFailure({ message: e.message }))
      ),
    pepList: options.pepList,
    enhancedSource: options.enhancedSource
  })

/** A fictional PEP list for the sandbox. */
export const SANDBOX_PEP_LIST: PepList = {
  name: "Osiris sandbox PEP list",
  entries: [
    { id: "pep-1", name: "Marta Quillfeather", kind: "individual", programs: ["PEP"], aliases: [] },
    { id: "pep-2", name: "Oswin Harrowgate", kind: "individual", programs: ["PEP"], aliases: ["Oz Harrowgate"] }
  ]
}

const unreachable = (website: string | null | undefined) => {
  if (website === null || website === undefined) return false
  try {
    return new URL(/^https?:\/\//i.test(website) ? website : `https://${website}`).hostname.endsWith(".invalid")
  } catch {
    return false
  }
}

/**
 * The sandbox's deterministic providers (no network). Website analysis fails when the submitted
 * website is under `.invalid`; everything else completes.
 */
export const sandbox: Providers = makeProviders({
  // Magic input: a submitted website under the reserved `.invalid` top-level domain cannot be reached.
  analyseWebsite: (url, input) =>
    unreachable(input.request.website) ?
      Effect.fail(
        new ProviderFailure({ message: `The website could not be reached: ${input.request.website} (sandbox).` })
      ) :
      Effect.succeed({
        url,
        final_url: url,
        status: 200,
        redirects: [],
        title: input.search.business?.name ?? null,
        tls: {
          protocol: "TLSv1.3",
          issuer: "Osiris Sandbox CA",
          valid_to: "Jan  1 00:00:00 2030 GMT",
          authorized: true
        },
        parked: false,
        parked_signs: []
      }),
  pepList: SANDBOX_PEP_LIST,
  enhancedSource: {
    name: "Osiris sandbox",
    // Deterministic "online" findings: the registry's officers plus one more, the registry's addresses.
    find: (b) =>
      Effect.succeed({
        officers: [
          ...b.registrations.flatMap((r) => r.officers.map((o) => ({ name: o.name, titles: o.titles }))),
          { name: "Avery Sandbox", titles: ["Director"] }
        ],
        addresses: b.addresses.map((a) => [a.street, a.city, a.state, a.zip].filter((x) => x).join(", "))
      })
  }
})

/**
 * Reads a PEP list from a file: JSON Lines (or one JSON array) of `{"name", "id"?, "aliases"?,
 * "positions"?}`; each is screened as a person. The list is named after the file.
 */
export const readPepList = (path: string): PepList => {
  const text = readFileSync(path, "utf8").trim()
  const items = (text.startsWith("[") ?
    JSON.parse(text) :
    text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l))) as ReadonlyArray<
      { id?: string; name: string; aliases?: Array<string>; positions?: Array<string> }
    >
  return {
    name: basename(path),
    entries: items.map((e, i) => ({
      id: e.id ?? String(i + 1),
      name: e.name,
      kind: "individual" as const,
      programs: e.positions ?? ["PEP"],
      aliases: e.aliases ?? []
    }))
  }
}
