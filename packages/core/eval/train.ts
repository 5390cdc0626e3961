/**
 * `npm run train`: estimates the Fellegi-Sunter weights of MatchModel from labelled training data
 * and writes src/data/match-weights.json. The pairs are exactly what a search compares: for each
 * training request, the records the blocking index shortlists, labelled true when the record is the
 * request's gold match. Training data: the DeepMatcher train and valid splits of Fodors-Zagat
 * (requests that also occur in the test split are left out) and the training half of the Chicago
 * early-childhood entities. Test data is never read here.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { prepareRequest } from "../src/Engine.js"
import * as MatchModel from "../src/MatchModel.js"
import { derivedId, makeMemoryIndex, type RegistryBusiness } from "../src/Registry.js"
import type { NameAddressForm } from "../src/SearchRequest.js"
import * as UsAddress from "../src/UsAddress.js"
import { chicagoTask, deepMatcherPairs, deepMatcherRegistry, deepMatcherRequest } from "./Datasets.js"

type Pair = { comparison: MatchModel.Comparison; match: boolean; query: number; expected: boolean }

const comparisons = (
  registry: ReadonlyArray<RegistryBusiness>,
  queries: ReadonlyArray<{ request: NameAddressForm; expected: string | null }>
): Array<Pair> => {
  const index = makeMemoryIndex(registry)
  const out: Array<Pair> = []
  for (const q of queries) {
    queryCount++
    const r = q.request
    const prepared = prepareRequest(
      { name: r.name, alternatives: r.alternative_names ?? [] },
      UsAddress.parse(r.address),
      {
        phone: r.phone_number,
        website: r.website,
        officers: r.officer_names ?? []
      }
    )
    for (const c of index.search(prepared, 1000)) {
      out.push({
        comparison: c.comparison,
        match: c.business.id === q.expected,
        query: queryCount,
        expected: q.expected !== null
      })
    }
    if (q.expected !== null) expectedCount++
  }
  return out
}

const fz = () => {
  const testLefts = new Set(deepMatcherPairs("test").map((p) => p.left.id))
  const training = [...deepMatcherPairs("train"), ...deepMatcherPairs("valid")].filter((p) => !testLefts.has(p.left.id))
  const queries = new Map<string, { request: NameAddressForm; expected: string | null }>()
  for (const p of training) {
    const q = queries.get(p.left.id) ?? { request: deepMatcherRequest(p.left), expected: null }
    if (p.label) q.expected = derivedId("dm-b", p.right.id)
    queries.set(p.left.id, q)
  }
  return comparisons(deepMatcherRegistry(), [...queries.values()])
}

const chicago = () => {
  const task = chicagoTask("train")
  return comparisons(task.registry, task.queries)
}

let queryCount = 0
let expectedCount = 0
const pairs = [...fz(), ...chicago()]
const weights = MatchModel.estimate(pairs)

/**
 * The decision threshold: the best candidate of a request counts as found from this probability.
 * Chosen on the same training requests to maximise F1 of end-to-end retrieval.
 */
const chooseThreshold = () => {
  const best = new Map<number, { p: number; match: boolean }>()
  for (const pair of pairs) {
    if (!MatchModel.eligible(pair.comparison)) continue
    const p = MatchModel.probability(pair.comparison, weights)
    const cur = best.get(pair.query)
    if (cur === undefined || p > cur.p) best.set(pair.query, { p, match: pair.match })
  }
  let chosen = 0.5
  let bestF1 = -1
  for (let t = 0.05; t < 0.995; t += 0.01) {
    let tp = 0, fp = 0
    for (const b of best.values()) {
      if (b.p < t) continue
      if (b.match) tp++
      else fp++
    }
    const fn = expectedCount - tp
    const f1 = (2 * tp) / (2 * tp + fp + fn)
    if (f1 > bestF1 + 1e-9) {
      bestF1 = f1
      chosen = t
    }
  }
  console.log(`decision threshold ${chosen.toFixed(2)} (training F1 ${bestF1.toFixed(3)})`)
  return Number(chosen.toFixed(2))
}
const round = (o: Record<string, Record<string, number>>) =>
  Object.fromEntries(
    Object.entries(o).map((
      [f, ls]
    ) => [f, Object.fromEntries(Object.entries(ls).map(([l, v]) => [l, Number(v.toPrecision(6))]))])
  )
const out = {
  prior: Number(weights.prior.toPrecision(6)),
  threshold: chooseThreshold(),
  m: round(weights.m),
  u: round(weights.u)
}
writeFileSync(join(import.meta.dirname, "..", "src", "data", "match-weights.json"), JSON.stringify(out) + "\n")

const matches = pairs.filter((p) => p.match).length
console.log(`training pairs: ${pairs.length} (${matches} matches); prior ${out.prior}`)
console.log("| field | level | m | u | weight log2(m/u) |")
console.log("|---|---|---|---|---|")
for (const [field, levels] of Object.entries(MatchModel.levels)) {
  for (const level of levels) {
    const m = (out.m as any)[field][level] as number
    const u = (out.u as any)[field][level] as number
    console.log(`| ${field} | ${level} | ${m.toFixed(4)} | ${u.toFixed(4)} | ${Math.log2(m / u).toFixed(2)} |`)
  }
}
