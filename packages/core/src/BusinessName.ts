/**
 * Business-name normalisation: Unicode folding and transliteration, case, punctuation, `&`/and,
 * number words, leading articles, and legal forms (Inc, L.L.C., GmbH, ...) taken off the end of
 * the name into a canonical class. The legal-form classes come from OpenSanctions' rigour
 * `org_types` and libpostal's `company_types` dictionaries (src/data/legal-forms.json).
 */
import legalFormData from "./data/legal-forms.json" with { type: "json" }
import orgSymbolData from "./data/org-symbols.json" with { type: "json" }
import stopwordData from "./data/stopwords.json" with { type: "json" }
import { tokens } from "./internal/Text.js"

/** A normalised business name. */
export interface BusinessName {
  /** The name as given. */
  readonly raw: string
  /** Core tokens: folded, without legal forms and leading/trailing articles. */
  readonly tokens: ReadonlyArray<string>
  /** Canonical classes of the legal forms found at the end of the name (outermost first). */
  readonly legalForms: ReadonlyArray<string>
  /** `tokens` joined by spaces: equal keys mean EXACT names (DECISIONS section 6). */
  readonly key: string
  /** Tokens with descriptor synonyms replaced by their symbol (international -> intl). */
  readonly symbols: ReadonlyArray<string>
  /** Tokens joined without spaces. */
  readonly compact: string
  /** Tokens sorted and joined (word order ignored). */
  readonly sorted: string
  /** Symbols joined, and sorted and joined. */
  readonly symbolKey: string
  readonly sortedSymbolKey: string
}

/**
 * Classes in the dictionaries that name what a business does or is, not its legal structure;
 * stripping them would make "First National Bank" and "First National Trust" the same name.
 */
const DESCRIPTORS = new Set([
  "",
  "associates",
  "association",
  "banca",
  "banco",
  "bank",
  "chartered",
  "club atlético",
  "club de fútbol",
  "clube desportivo",
  "associazione calcio",
  "associação desportiva",
  "compagnia",
  "companhia",
  "compañía",
  "cooperativa",
  "cooperative",
  "cooperativo",
  "doing business as",
  "empresa",
  "enterprise",
  "federal credit union",
  "federal savings bank",
  "firma",
  "fondation",
  "football club",
  "foundation",
  "fund",
  "futebol clube",
  "fußball club",
  "fútbol club",
  "gesellschaft",
  "group",
  "groupe",
  "groupes",
  "groups",
  "intermediary",
  "joint venture",
  "kelab",
  "kelab bola sepak",
  "koop",
  "kooperativ",
  "koperasi",
  "nonprofit",
  "persatuan",
  "persekutuan",
  "sociedad",
  "society",
  "società",
  "trust",
  "union"
])

/**
 * US forms that neither dictionary spells the way US filings write them (Pub. 28 has no legal
 * forms; rigour and libpostal lack "P.C." and "P.A." as professional corporations/associations).
 */
const SUPPLEMENT: ReadonlyArray<{ readonly key: string; readonly aliases: ReadonlyArray<string> }> = [
  { key: "PC", aliases: ["professional corporation", "prof corp", "p c", "pc"] },
  { key: "PA", aliases: ["professional association", "p a", "pa"] }
]

interface FormIndex {
  readonly byAlias: ReadonlyMap<string, string>
  readonly maxTokens: number
}

const buildFormIndex = (): FormIndex => {
  const byAlias = new Map<string, string>()
  let maxTokens = 1
  const add = (key: string, aliases: ReadonlyArray<string>) => {
    const normalised = aliases.map((a) => tokens(a)).filter((t) => t.length > 0)
    // A libpostal line whose variant is already known joins that class (incorporated|inc -> Inc).
    const existing = normalised.map((t) => byAlias.get(t.join(" "))).find((k) => k !== undefined)
    const cls = existing ?? key
    for (const t of normalised) {
      const joined = t.join(" ")
      if (!byAlias.has(joined)) byAlias.set(joined, cls)
      if (t.length > maxTokens) maxTokens = t.length
    }
  }
  for (const s of SUPPLEMENT) add(s.key, s.aliases)
  for (const form of legalFormData as ReadonlyArray<{ key: string; aliases: ReadonlyArray<string> }>) {
    if (DESCRIPTORS.has(form.key.toLowerCase())) continue
    add(form.key, form.aliases)
  }
  return { byAlias, maxTokens: Math.min(maxTokens, 6) }
}

let formIndex: FormIndex | undefined
const forms = (): FormIndex => (formIndex ??= buildFormIndex())

let symbolIndex: ReadonlyMap<string, string> | undefined
const symbolOf = (): ReadonlyMap<string, string> => {
  if (symbolIndex !== undefined) return symbolIndex
  const m = new Map<string, string>()
  for (const [symbol, variants] of Object.entries(orgSymbolData as Record<string, ReadonlyArray<string>>)) {
    for (const v of variants) {
      const t = tokens(v)
      if (t.length === 1 && !m.has(t[0]!)) m.set(t[0]!, symbol)
    }
    if (!m.has(symbol)) m.set(symbol, symbol)
  }
  return (symbolIndex = m)
}

const ARTICLES = new Set(["the", ...stopwordData.orgPrefixes.flatMap((p) => tokens(p))])

/** Single-word legal forms that also start ordinary names ("Company Store", "Limited Editions"). */
const LEADING_WORDS = new Set([
  "co",
  "company",
  "corp",
  "corporation",
  "inc",
  "incorporated",
  "limited",
  "ltd",
  "partners",
  "partnership",
  "pa",
  "pc",
  "sa",
  "ag",
  "as",
  "pt",
  "se",
  "ab",
  "na"
])

/** The canonical class of a legal-form phrase ("L.L.C." -> "LLC"), if it is one. */
export const legalFormClass = (phrase: string): string | undefined => forms().byAlias.get(tokens(phrase).join(" "))

/** Normalises a business name. */
export const normalize = (raw: string): BusinessName => {
  const t = tokens(raw)
  const { byAlias, maxTokens } = forms()
  const legalForms: Array<string> = []
  // Take legal forms off the end, longest phrase first, at most three, keeping one token.
  for (let round = 0; round < 3; round++) {
    let found = false
    for (let n = Math.min(maxTokens, t.length - 1); n >= 1; n--) {
      const cls = byAlias.get(t.slice(t.length - n).join(" "))
      if (cls !== undefined) {
        legalForms.push(cls)
        t.splice(t.length - n, n)
        found = true
        break
      }
    }
    if (!found) break
  }
  // Forms written before the name (OOO, JSC, "Limited Liability Company ..."): multi-word phrases,
  // or single words that are not also ordinary English words at the start of a name.
  for (let round = 0; round < 3; round++) {
    let found = false
    for (let n = Math.min(maxTokens, t.length - 1); n >= 1 && !found; n--) {
      const phrase = t.slice(0, n).join(" ")
      const cls = byAlias.get(phrase)
      if (cls !== undefined && (n > 1 || (phrase.length >= 3 && !LEADING_WORDS.has(phrase)))) {
        legalForms.push(cls)
        t.splice(0, n)
        found = true
      }
    }
    if (!found) break
  }
  while (t.length > 1 && ARTICLES.has(t[0]!)) t.shift()
  while (t.length > 1 && ARTICLES.has(t[t.length - 1]!)) t.pop()
  const table = symbolOf()
  const symbols = t.map((x) => table.get(x) ?? x)
  return {
    raw,
    tokens: t,
    legalForms,
    key: t.join(" "),
    symbols,
    compact: t.join(""),
    sorted: [...t].sort().join(" "),
    symbolKey: symbols.join(" "),
    sortedSymbolKey: [...symbols].sort().join(" ")
  }
}

const SPLIT = new RegExp(
  `\\s+(?:${
    stopwordData.splitPhrases.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).sort((a, b) => b.length - a.length)
      .join("|")
  })\\s+`,
  "i"
)

/** Splits "Acme Inc d/b/a Acme Widgets" into its names (rigour's name-split phrases). */
export const splitNames = (raw: string): Array<string> =>
  raw.split(SPLIT).map((s) => s.trim()).filter((s) => s.length > 0)

/** True when both names carry equivalent legal forms, or at least one carries none. */
export const legalFormsEquivalent = (a: BusinessName, b: BusinessName): boolean =>
  a.legalForms.length === 0 || b.legalForms.length === 0 || a.legalForms.some((f) => b.legalForms.includes(f))

/**
 * The normalised names a given name stands for: split on "d/b/a", "a.k.a." and similar phrases,
 * and each also without a parenthetical qualifier ("Spago (Los Angeles)" -> "Spago"), which names
 * a branch or place rather than the business.
 */
export const variants = (raw: string): Array<BusinessName> => {
  const out: Array<BusinessName> = []
  const keys = new Set<string>()
  for (const part of splitNames(raw)) {
    const bare = part.replace(/\([^)]*\)/g, " ").replace(/\s+/g, " ").trim()
    for (const text of bare.length > 0 && bare !== part ? [part, bare] : [part]) {
      const n = normalize(text)
      if (n.tokens.length > 0 && !keys.has(n.key)) {
        keys.add(n.key)
        out.push(n)
      }
    }
  }
  return out
}

/** Whether a name reads as an organisation: a legal form anywhere in it, or a descriptor (Services, Group, Bank...). */
export const looksLikeOrganisation = (raw: string): boolean => {
  const n = normalize(raw)
  if (n.legalForms.length > 0) return true
  const { byAlias } = forms()
  const symbols = symbolOf()
  return tokens(raw).some((t) => t.length >= 3 && (byAlias.has(t) || symbols.has(t) || DESCRIPTORS.has(t)))
}
