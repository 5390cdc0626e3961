/**
 * `npm run eval`: accuracy of the engine on every labelled data set in ../shared/data. Prints the
 * tables and writes them to docs/ACCURACY.md (with `--no-write`, prints only).
 */
import { jaroWinkler } from "../src/internal/Text.js"
import * as NameMatch from "../src/NameMatch.js"
import { derivedId } from "../src/Registry.js"
import * as Watchlist from "../src/Watchlist.js"
import {
  chicagoTask,
  deepMatcherPairs,
  deepMatcherRegistry,
  deepMatcherRequest,
  fodorsZagatFull,
  nomenklatura,
  ORG_SCHEMAS,
  patstatEntities,
  type Task
} from "./Datasets.js"
import { writeSection } from "./Docs.js"
import { engineFor, f3, prf } from "./Harness.js"

interface Row {
  readonly set: string
  readonly n: string
  readonly precision: number
  readonly recall: number
  readonly f1: number
  readonly verifiedPrecision: number | null
  readonly verifiedRecall: number | null
  readonly note: string
}

const rows: Array<Row> = []
const notes: Array<string> = []
const rankingNotes: Array<string> = []

/** Best F1 over all thresholds and average precision of a score's ranking. */
const rankingQuality = <P extends { readonly match: boolean }>(pairs: ReadonlyArray<P>, score: (p: P) => number) => {
  const scored = pairs.map((p) => ({ s: score(p), m: p.match })).sort((x, y) => y.s - x.s)
  const positives = scored.filter((x) => x.m).length
  let tp = 0
  let fp = 0
  let maxF1 = 0
  let ap = 0
  scored.forEach((x, i) => {
    if (x.m) {
      tp++
      ap += tp / (tp + fp)
    } else {
      fp++
    }
    if (i + 1 < scored.length && scored[i + 1]!.s === x.s) return
    maxF1 = Math.max(maxF1, (2 * tp) / (tp + fp + positives))
  })
  return { maxF1, ap: positives === 0 ? 0 : ap / positives }
}

/** End-to-end: each request either finds a business (a predicted pair) or not. */
const runTask = async (task: Task, note = "") => {
  const engine = engineFor(task.registry)
  let tp = 0, fp = 0, fn = 0, vtp = 0, vfp = 0
  const positives = task.queries.filter((q) => q.expected !== null).length
  const misses: Array<string> = []
  for (const q of task.queries) {
    const v = await engine.verify(q.request)
    const found = v.business?.id ?? null
    if (found !== null && found === q.expected) tp++
    else {
      if (found !== null) fp++
      if (q.expected !== null) fn++
      if (misses.length < 30 && (found !== null || q.expected !== null)) {
        misses.push(
          `${q.request.name} | ${q.request.address} -> ${v.business?.name ?? "none"} | ${v.business?.address ?? ""} (${
            (v.match_probability ?? 0).toFixed(2)
          }) expected ${q.expected === null ? "none" : task.registry.find((r) => r.id === q.expected)?.name}`
        )
      }
    }
    if (v.verified) {
      if (found === q.expected) vtp++
      else vfp++
    }
  }
  await engine.dispose()
  const m = prf(tp, fp, fn)
  rows.push({
    set: task.name,
    n: `${task.registry.length} records, ${task.queries.length} requests (${positives} with a match)`,
    precision: m.precision,
    recall: m.recall,
    f1: m.f1,
    verifiedPrecision: vtp + vfp === 0 ? null : vtp / (vtp + vfp),
    verifiedRecall: positives === 0 ? null : vtp / positives,
    note
  })
  if (process.argv.includes("--verbose")) console.log(task.name, "\n  " + misses.join("\n  "))
}

/** DeepMatcher test split: a pair is predicted a match when the left restaurant's search finds the right one. */
const runDeepMatcher = async () => {
  const pairs = deepMatcherPairs("test")
  const engine = engineFor(deepMatcherRegistry())
  const found = new Map<string, { id: string | null; verified: boolean }>()
  for (const p of pairs) {
    if (found.has(p.left.id)) continue
    const v = await engine.verify(deepMatcherRequest(p.left))
    found.set(p.left.id, { id: v.business?.id ?? null, verified: v.verified })
  }
  await engine.dispose()
  let tp = 0, fp = 0, fn = 0, vtp = 0, vfp = 0
  for (const p of pairs) {
    const f = found.get(p.left.id)!
    const predicted = f.id === derivedId("dm-b", p.right.id)
    if (predicted && p.label) tp++
    else if (predicted) fp++
    else if (p.label) fn++
    if (predicted && f.verified) {
      if (p.label) vtp++
      else vfp++
    }
  }
  const m = prf(tp, fp, fn)
  const positives = pairs.filter((p) => p.label).length
  rows.push({
    set: "Fodors-Zagat, DeepMatcher test split",
    n: `${pairs.length} labelled pairs (${positives} matches)`,
    precision: m.precision,
    recall: m.recall,
    f1: m.f1,
    verifiedPrecision: vtp + vfp === 0 ? null : vtp / (vtp + vfp),
    verifiedRecall: vtp / positives,
    note: "published matchers (Magellan, DeepMatcher, Ditto) report F1 1.00 on this split"
  })
}

/** PATSTAT: registry = each test entity's most frequent name; requests = its other distinct names. */
const runPatstat = () => {
  const entities = patstatEntities("test")
  const canonical: Array<{ id: string; name: string }> = []
  const queries: Array<{ id: string; name: string }> = []
  for (const [id, names] of entities) {
    const counts = new Map<string, number>()
    for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1)
    const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    canonical.push({ id, name: sorted[0]![0] })
    for (const [n] of sorted.slice(1)) queries.push({ id, name: n })
  }
  let tp = 0, fp = 0, fn = 0, etp = 0, efp = 0
  for (const q of queries) {
    let best: { id: string; s: number; grade: string } | undefined
    for (const c of canonical) {
      const grade = NameMatch.grade({ name: q.name, alternatives: [] }, { name: c.name, alternatives: [] })
      if (grade === "NO_MATCH") continue
      const s = NameMatch.bestSimilarity({ name: q.name, alternatives: [] }, { name: c.name, alternatives: [] })
      if (best === undefined || s > best.s) best = { id: c.id, s, grade }
    }
    if (best?.id === q.id) tp++
    else {
      if (best !== undefined) fp++
      fn++
    }
    if (best?.grade === "EXACT") {
      if (best.id === q.id) etp++
      else efp++
    }
  }
  const m = prf(tp, fp, fn)
  rows.push({
    set: "PATSTAT applicants (names, test half)",
    n: `${canonical.length} entities, ${queries.length} name variants`,
    precision: m.precision,
    recall: m.recall,
    f1: m.f1,
    verifiedPrecision: etp + efp === 0 ? null : etp / (etp + efp),
    verifiedRecall: etp / queries.length,
    note: "name only; the verified columns give the EXACT grade's precision and recall here"
  })
}

/** Moov Watchman's published name score (as we read it): best-pairs Jaro-Winkler, length weighted. */
const watchmanScore = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => {
  if (a.length === 0 || b.length === 0) return 0
  let total = 0
  let weight = 0
  for (const t of a) {
    let best = 0
    for (const u of b) best = Math.max(best, jaroWinkler(t, u))
    total += best * t.length
    weight += t.length
  }
  const lengthPenalty = Math.min(a.join("").length, b.join("").length) / Math.max(a.join("").length, b.join("").length)
  return (total / weight) * (0.5 + 0.5 * lengthPenalty)
}

/** nomenklatura pairs: the name matcher (organisations) and the screening score (everything). */
const runNomenklatura = () => {
  const pairs = nomenklatura()
  const orgs = pairs.filter((p) => ORG_SCHEMAS.includes(p.schema))
  let tp = 0, fp = 0, fn = 0
  for (const p of orgs) {
    const g = NameMatch.grade({ name: p.name1, alternatives: [] }, { name: p.name2, alternatives: [] }) !== "NO_MATCH"
    if (g && p.match) tp++
    else if (g) fp++
    else if (p.match) fn++
  }
  const m = prf(tp, fp, fn)
  const logic = (subset: typeof pairs, threshold: number) => {
    let a = 0, b = 0, c = 0
    for (const p of subset) {
      if (p.logicV2 === undefined) continue
      const g = p.logicV2 >= threshold
      if (g && p.match) a++
      else if (g) b++
      else if (p.match) c++
    }
    return prf(a, b, c)
  }
  const lo = logic(orgs, 0.7)
  rows.push({
    set: "nomenklatura organisation pairs (business_name_match)",
    n: `${orgs.length} pairs`,
    precision: m.precision,
    recall: m.recall,
    f1: m.f1,
    verifiedPrecision: null,
    verifiedRecall: null,
    note: `EXACT or SIMILAR counts as a match; OpenSanctions logic_v2 (0.7): P ${f3(lo.precision)} R ${
      f3(lo.recall)
    } F1 ${f3(lo.f1)}`
  })
  const screen = (subset: typeof pairs, score: (p: (typeof pairs)[number]) => number, threshold: number) => {
    let a = 0, b = 0, c = 0
    for (const p of subset) {
      const g = score(p) >= threshold
      if (g && p.match) a++
      else if (g) b++
      else if (p.match) c++
    }
    return prf(a, b, c)
  }
  const kind = (p: (typeof pairs)[number]) => (p.schema === "Person" ? "person" : "business") as "person" | "business"
  const ours = (p: (typeof pairs)[number]) => Watchlist.scoreNames(p.name1, p.name2, kind(p))
  const watchman = (p: (typeof pairs)[number]) =>
    watchmanScore(Watchlist.screeningTokens(p.name1, kind(p)), Watchlist.screeningTokens(p.name2, kind(p)))
  for (
    const [label, subset] of [["all schemas", pairs], ["people", pairs.filter((p) => p.schema === "Person")], [
      "organisations",
      orgs
    ]] as const
  ) {
    const o = screen(subset, ours, Watchlist.HIT_THRESHOLD)
    const w = screen(subset, watchman, 0.85)
    const l = logic(subset, 0.7)
    notes.push(
      `| ${label} | ${subset.length} | ${f3(o.precision)} / ${f3(o.recall)} / **${f3(o.f1)}** | ${f3(w.precision)} / ${
        f3(w.recall)
      } / ${f3(w.f1)} | ${f3(l.precision)} / ${f3(l.recall)} / ${f3(l.f1)} |`
    )
    // Threshold-free: over the pairs logic_v2 scored, the best F1 any threshold reaches and the
    // average precision of the ranking, for each method.
    const scoredSubset = subset.filter((p) => p.logicV2 !== undefined)
    const a = rankingQuality(scoredSubset, ours)
    const b = rankingQuality(scoredSubset, watchman)
    const c = rankingQuality(scoredSubset, (p) => p.logicV2!)
    rankingNotes.push(
      `| ${label} | ${scoredSubset.length} | **${f3(a.maxF1)}** / ${f3(a.ap)} | ${f3(b.maxF1)} / ${f3(b.ap)} | ${
        f3(c.maxF1)
      } / ${f3(c.ap)} |`
    )
  }
}

const main = async () => {
  const started = Date.now()
  await runTask(
    fodorsZagatFull(),
    "the Fodors-Zagat gold pairs of the DeepMatcher train/valid splits were used to estimate the weights"
  )
  await runDeepMatcher()
  await runTask(
    chicagoTask("test"),
    "registry = one record per entity for 80% of the entities; the other 20% must find nothing"
  )
  runPatstat()
  runNomenklatura()
  const table = [
    "| data set | size | precision | recall | F1 | verified precision | verified recall | note |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map((r) =>
      `| ${r.set} | ${r.n} | ${f3(r.precision)} | ${f3(r.recall)} | **${f3(r.f1)}** | ${
        r.verifiedPrecision === null ? "-" : f3(r.verifiedPrecision)
      } | ${r.verifiedRecall === null ? "-" : f3(r.verifiedRecall)} | ${r.note} |`
    )
  ].join("\n")
  const screening = [
    "| pairs | n | Osiris screening (threshold " + Watchlist.HIT_THRESHOLD +
    ") P / R / F1 | Watchman-style best-pairs JW (0.85) P / R / F1 | OpenSanctions logic_v2 (0.7) P / R / F1 |",
    "|---|---|---|---|---|",
    ...notes,
    "",
    "Threshold-free (the methods' thresholds mean different things): best F1 over all thresholds / average precision,",
    "on the pairs logic_v2 scored:",
    "",
    "| pairs | n | Osiris | Watchman-style | OpenSanctions logic_v2 |",
    "|---|---|---|---|---|",
    ...rankingNotes
  ].join("\n")
  console.log(table)
  console.log()
  console.log(screening)
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`)
  if (!process.argv.includes("--no-write")) {
    writeSection(
      "ACCURACY.md",
      "eval",
      `${table}\n\nWatchlist screening score on the nomenklatura pairs:\n\n${screening}`
    )
  }
}

main()
