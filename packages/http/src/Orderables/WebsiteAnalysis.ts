/**
 * Website analysis: a real fetch of a business's website through the outbound guard (public
 * addresses only, checked at connect time; every redirect hop checked again), reporting the status,
 * final URL, redirect chain, page title, TLS (protocol, issuer, expiry, whether the certificate
 * verified) and signs of a parked domain. At most 5 redirects, 10 s per hop, 256 KiB of page read.
 */
import { Guard } from "@osiris/webhooks"
import { Data, Effect } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import type { TLSSocket } from "node:tls"

/** The analysis could not be made. */
export class AnalysisFailed extends Data.TaggedError("AnalysisFailed")<{ readonly message: string }> {}

/** What one hop answered. */
interface Hop {
  readonly url: string
  readonly status: number
  readonly location: string | null
  readonly body: string
  readonly tls: { protocol: string | null; issuer: string | null; valid_to: string | null; authorized: boolean } | null
}

const MAX_REDIRECTS = 5
const MAX_BODY = 256 * 1024
const TIMEOUT = 10_000

/** Words on a page that mark a parked or for-sale domain. */
const PARKED = [
  /this domain (name )?(is|may be) for sale/i,
  /buy this domain/i,
  /domain (is )?parked/i,
  /parked (free|domain|by)/i,
  /\bsedoparking\b|\bparkingcrew\b|\bbodis\b|\bhugedomains\b|\bdan\.com\b/i,
  /this (web )?page is parked/i,
  /domain for sale/i
]

const fetchOnce = (url: string, guard: Guard.GuardOptions) =>
  Effect.async<Hop, AnalysisFailed>((resume) => {
    // The URL's rules, and a literal IP host (which never reaches the resolver).
    const refusal = Guard.urlRefusal(url, guard)
    if (refusal !== undefined) return resume(Effect.fail(new AnalysisFailed({ message: `refused: ${refusal}` })))
    const u = new URL(url)
    const options = {
      method: "GET",
      lookup: Guard.guardedLookup(guard) as unknown as http.RequestOptions["lookup"],
      headers: { "user-agent": "Osiris-WebsiteAnalysis/1", accept: "text/html,*/*" },
      // The certificate is reported, not required: a site with a bad certificate is a finding.
      rejectUnauthorized: false
    }
    const req = (u.protocol === "https:" ? https : http).request(u, options, (res) => {
      const socket = res.socket as TLSSocket
      const tls = u.protocol === "https:" && typeof socket.getPeerCertificate === "function"
        ? (() => {
          const cert = socket.getPeerCertificate()
          return {
            protocol: socket.getProtocol?.() ?? null,
            issuer: (cert?.issuer?.O ?? cert?.issuer?.CN ?? null) as string | null,
            valid_to: cert?.valid_to ?? null,
            authorized: socket.authorized === true
          }
        })()
        : null
      const chunks: Array<Buffer> = []
      let read = 0
      const done = () => {
        clearTimeout(timer)
        resume(Effect.succeed({
          url,
          status: res.statusCode ?? 0,
          location: typeof res.headers.location === "string" ? res.headers.location : null,
          body: Buffer.concat(chunks).toString("utf8"),
          tls
        }))
      }
      res.on("data", (c: Buffer) => {
        if (read < MAX_BODY) chunks.push(c)
        read += c.length
        if (read >= MAX_BODY) {
          res.destroy()
          done()
        }
      })
      res.on("end", done)
      res.on("error", done)
    })
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${TIMEOUT} ms`)), TIMEOUT)
    req.on("error", (e) => {
      clearTimeout(timer)
      resume(Effect.fail(new AnalysisFailed({ message: e.message })))
    })
    req.end()
    return Effect.sync(() => req.destroy())
  })

const titleOf = (html: string) => {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)
  return m === null ? null : m[1]!.replace(/\s+/g, " ").trim().slice(0, 300) || null
}

/** Analyses the site at `url`, following redirects (each hop guarded). */
export const analyse = (url: string, guard: Guard.GuardOptions) =>
  Effect.gen(function*() {
    const redirects: Array<{ url: string; status: number }> = []
    let hop = yield* fetchOnce(url, guard)
    while (hop.status >= 300 && hop.status < 400 && hop.location !== null) {
      if (redirects.length >= MAX_REDIRECTS) {
        return yield* new AnalysisFailed({ message: `more than ${MAX_REDIRECTS} redirects` })
      }
      redirects.push({ url: hop.url, status: hop.status })
      hop = yield* fetchOnce(new URL(hop.location, hop.url).toString(), guard)
    }
    const title = titleOf(hop.body)
    const signs = PARKED.filter((p) => p.test(hop.body)).map((p) => p.source)
    return {
      url,
      final_url: hop.url,
      status: hop.status,
      redirects,
      title,
      tls: hop.tls,
      parked: signs.length > 0,
      parked_signs: signs
    }
  })
