/**
 * The console's pages, rendered on the server as plain HTML with inline CSS (no JavaScript): a
 * search (the input beside the matched record, every indicator as a coloured badge, watchlist hits,
 * scores, orderables and their state) and a business (its record and standing). Every value is
 * escaped; colours carry meaning and the text says the same, for readers who do not see colour.
 */
import type { Business, Search } from "@osiris/core"
import type { Events } from "@osiris/webhooks"

/** Escapes text for HTML. */
export const escape = (v: unknown): string =>
  String(v ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!
  )

type Tone = "good" | "warn" | "bad" | "none"

const badge = (label: string, value: string | null, tone: Tone) =>
  `<span class="badge ${tone}"><span class="k">${escape(label)}</span> ${escape(value ?? "n/a")}</span>`

const toneOfMatch = (v: string | null): Tone =>
  v === null ? "none" : v === "EXACT" || v === "FULL" ? "good" : v === "SIMILAR" || v === "PARTIAL" ? "warn" : "bad"

const toneOfBool = (v: boolean | null): Tone => (v === null ? "none" : v ? "good" : "bad")

const toneOfState = (s: string): Tone =>
  s === "COMPLETED" ? "good" : s === "FAILED" || s === "CANCELLED" ? "bad" : "warn"

const row = (k: string, v: unknown) => `<tr><th>${escape(k)}</th><td>${escape(v)}</td></tr>`

const CSS = `
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2330;background:#f5f6f8}
header{background:#1d2330;color:#fff;padding:14px 24px}header h1{margin:0;font-size:19px}
header .sub{opacity:.75;font-size:13px}
main{padding:20px 24px;max-width:1200px}
section{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:14px 18px;margin-bottom:16px}
h2{font-size:16px;margin:0 0 10px}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:16px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eef0f3;vertical-align:top}
th{width:38%;color:#5a6272;font-weight:600}
.badges{display:flex;flex-wrap:wrap;gap:8px}
.badge{display:inline-block;border-radius:999px;padding:4px 12px;font-weight:600;font-size:13px;border:1px solid}
.badge .k{font-weight:400}
.good{background:#e3f6e8;color:#13602c;border-color:#9ad8ab}.warn{background:#fff4d6;color:#7a5600;border-color:#f0d27a}
.bad{background:#fde4e4;color:#8a1c1c;border-color:#f1a4a4}.none{background:#eef0f3;color:#4a5160;border-color:#d3d7de}
.verdict{font-size:18px;padding:6px 16px}
.muted{color:#6b7383}
`

const page = (title: string, subtitle: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Osiris console</title><style>${CSS}</style></head>
<body><header><h1>${escape(title)}</h1><div class="sub">${
    escape(subtitle)
  }</div></header><main>${body}</main></body></html>`

const addressLine = (a: { street?: string | null; city?: string | null; state?: string | null; zip?: string | null }) =>
  [a.street, a.city, [a.state, a.zip].filter((x) => x).join(" ")].filter((x) => x).join(", ")

/** The search page. */
export const searchPage = (s: Search.Search, orderables: ReadonlyArray<Events.OrderRecord>): string => {
  const b = s.business
  const indicators = [
    badge("Verified", s.verified ? "YES" : "NO", s.verified ? "good" : "bad"),
    badge("State", s.state, toneOfState(s.state)),
    badge("Name", s.business_name_match, toneOfMatch(s.business_name_match)),
    badge("Address", s.business_address_match, toneOfMatch(s.business_address_match)),
    badge("Address validation", s.search_address_validation_level, toneOfMatch(s.search_address_validation_level)),
    badge("Officers", s.business_officer_match, toneOfMatch(s.business_officer_match)),
    badge("Registered agent", s.registered_agent_match, toneOfMatch(s.registered_agent_match)),
    badge(
      "Website",
      s.business_website_match === null ? null : s.business_website_match ? "MATCH" : "NO MATCH",
      toneOfBool(s.business_website_match)
    ),
    badge(
      "TIN",
      s.tin_matched === null
        ? null
        : `${s.tin_matched ? "MATCHED" : "MISMATCHED"}${s.tin_match_type === null ? "" : ` (${s.tin_match_type})`}`,
      toneOfBool(s.tin_matched)
    ),
    badge(
      "Watchlist",
      s.watchlist_hits.length === 0 ? "CLEAR" : `${s.watchlist_hits.length} HIT(S)`,
      s.watchlist_hits.length === 0 ? "good" : "bad"
    )
  ].join("")
  const input = `<table>${
    [
      row("Name", s.name),
      row("Address", s.address),
      row("Alternative names", s.alternative_names.join("; ") || "—"),
      row("Officers", s.officer_names.join("; ") || "—"),
      row("Website", s.website ?? "—"),
      row("Phone", s.phone_number ?? "—"),
      row("Email", s.email ?? "—"),
      row("TIN", s.tin === null ? "—" : `••••• ${s.tin.slice(-4)}`),
      row("Reference", s.reference_id ?? "—")
    ].join("")
  }</table>`
  const matched = b === null
    ? `<p class="muted">${escape(s.error ?? "No business matched.")}</p>`
    : `<table>${
      [
        row("Name", b.name),
        row("Address", b.address ?? (b.primary_address === null ? "—" : addressLine(b.primary_address))),
        row("Structure", b.structure ?? "—"),
        row("Officers", [...new Set(b.registrations.flatMap((r) => r.officers.map((o) => o.name)))].join("; ") || "—"),
        row(
          "Registered agents",
          [...new Set(b.registrations.flatMap((r) => (r.registered_agent === null ? [] : [r.registered_agent.name])))]
            .join("; ") || "—"
        ),
        row("Website", b.website ?? "—"),
        row("Phone", b.phone_number ?? "—"),
        row("EIN on file", b.ein === null ? "—" : "yes")
      ].join("")
    }</table><p><a href="../business/${escape(b.id)}">Business record</a></p>`
  const hits = s.watchlist_hits.length === 0
    ? "<p class=\"muted\">No watchlist hits.</p>"
    : `<table><tr><th>List</th><th>Matched</th><th>Name</th><th>Score</th></tr>${
      s.watchlist_hits.map((h) =>
        `<tr><td>${escape(h.list)}</td><td>${escape(h.matched)}</td><td>${escape(h.name)}</td><td>${
          escape(h.score.toFixed(2))
        }</td></tr>`
      ).join("")
    }</table>`
  const scores = s.scores.length === 0
    ? "<p class=\"muted\">No scores yet.</p>"
    : `<div class="badges">${
      s.scores.map((sc) =>
        badge(
          sc.type,
          `${sc.score} (${sc.rating})`,
          sc.rating === "A" || sc.rating === "B" ? "good" : sc.rating === "C" ? "warn" : "bad"
        )
      ).join("")
    }</div>`
  const extras = orderables.length === 0
    ? "<p class=\"muted\">No extras ordered.</p>"
    : `<table><tr><th>Extra</th><th>State</th><th>Updated</th></tr>${
      orderables.map((o) =>
        `<tr><td>${escape(o.option)}</td><td>${badge("", o.state, toneOfState(o.state))}${
          o.error === null ? "" : ` <span class="muted">${escape(o.error)}</span>`
        }</td><td>${escape(o.updated_at)}</td></tr>`
      ).join("")
    }</table>`
  return page(
    s.verified ? `Verified: ${s.name}` : `Not verified: ${s.name}`,
    `Search ${s.id} · created ${s.created_at} · updated ${s.updated_at}`,
    `<section><h2>Outcome</h2><div class="badges"><span class="badge verdict ${s.verified ? "good" : "bad"}">${
      s.verified ? "VERIFIED" : "NOT VERIFIED"
    }</span></div></section>
<section><h2>Indicators</h2><div class="badges">${indicators}</div>${
      s.warnings.length === 0 ? "" : `<p class="muted">${s.warnings.map(escape).join("<br>")}</p>`
    }</section>
<div class="cols"><section><h2>Input</h2>${input}</section><section><h2>Matched record</h2>${matched}</section></div>
<section><h2>Watchlist</h2>${hits}</section>
<section><h2>Scores</h2>${scores}</section>
<section><h2>Extras</h2>${extras}</section>`
  )
}

/** The business page. */
export const businessPage = (b: Business.Business, status: Business.BusinessStatus): string =>
  page(
    b.name,
    `Business ${b.id}`,
    `<section><h2>Standing</h2><div class="badges">${
      badge("Status", status.status, status.status === "ACTIVE" ? "good" : status.status === "UNKNOWN" ? "none" : "bad")
    }${
      badge(
        "Standing",
        status.standing,
        status.standing === "GOOD" ? "good" : status.standing === "BAD" ? "bad" : "none"
      )
    }${
      badge(
        "Watchlist",
        b.watchlist_hits.length === 0 ? "CLEAR" : `${b.watchlist_hits.length} HIT(S)`,
        b.watchlist_hits.length === 0 ? "good" : "bad"
      )
    }</div></section>
<section><h2>Record</h2><table>${
      [
        row("Name", b.name),
        row("Alternative names", b.alternative_names.join("; ") || "—"),
        row("Structure", b.structure ?? "—"),
        row("Addresses", b.addresses.map(addressLine).join(" | ") || "—"),
        row("Website", b.website ?? "—"),
        row("Phones", b.phone_numbers.join("; ") || "—")
      ].join("")
    }</table></section>
<section><h2>Registrations</h2>${
      b.registrations.length === 0
        ? "<p class=\"muted\">No registrations on file.</p>"
        : `<table><tr><th>State</th><th>Status</th><th>Standing</th><th>Registered agent</th></tr>${
          b.registrations.map((r) =>
            `<tr><td>${escape(r.state)}</td><td>${escape(r.status)}</td><td>${escape(r.standing ?? "—")}</td><td>${
              escape(r.registered_agent?.name ?? "—")
            }</td></tr>`
          ).join("")
        }</table>`
    }</section>`
  )
