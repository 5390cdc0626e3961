/**
 * One delivery attempt: a POST of the signed body through the outbound guard, redirects not
 * followed, a 15 s limit for the whole exchange, success only on 2xx. Built on `node:http(s)`
 * directly (not fetch) because the guard needs the connection's resolver (`lookup`), and with
 * keep-alive agents so a busy endpoint is not a new TLS handshake per event. The response body is
 * read up to a bound and its first characters kept for the attempt log.
 */
import { Effect } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import { guardedLookup, type GuardOptions, urlRefusal } from "./Guard.js"

/** The limit for one attempt, connection to last byte. */
export const TIMEOUT_MILLIS = 15_000

/** Characters of the response body kept in the attempt log. */
export const SNIPPET_CHARS = 1024

/** Bytes of a response body read at most (the rest is dropped with the connection). */
const MAX_READ = 64 * 1024

/** What one attempt got. `status` is null when no response arrived (refused, reset, timeout). */
export interface Attempt {
  readonly status: number | null
  readonly latencyMillis: number
  readonly error: string | null
  readonly response: string | null
  readonly retryAfter: string | null
}

/** Connection pools for deliveries (one per process). */
export interface Agents {
  readonly http: http.Agent
  readonly https: https.Agent
}

/** Keep-alive agents with the guard's resolver. */
export const makeAgents = (guard: GuardOptions, maxSockets = 64): Agents => {
  const lookup = guardedLookup(guard) as unknown as http.AgentOptions["lookup"]
  return {
    http: new http.Agent({ keepAlive: true, maxSockets, lookup } as http.AgentOptions),
    https: new https.Agent({ keepAlive: true, maxSockets, lookup } as https.AgentOptions)
  }
}

/** POSTs `body` to `url` with `headers`, guarded; never fails (the outcome says what happened). */
export const post = (input: {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly guard: GuardOptions
  readonly agents: Agents
  readonly timeoutMillis?: number
}): Effect.Effect<Attempt> =>
  Effect.async<Attempt>((resume) => {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const refused = (error: string): Attempt => ({
      status: null,
      latencyMillis: elapsed(),
      error,
      response: null,
      retryAfter: null
    })
    // The URL's rules, and a literal IP host (which never reaches the resolver).
    const refusal = urlRefusal(input.url, input.guard)
    if (refusal !== undefined) return resume(Effect.succeed(refused(`refused: ${refusal}`)))
    const u = new URL(input.url)
    let settled = false
    const settle = (a: Attempt) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(Effect.succeed(a))
    }
    const payload = Buffer.from(input.body, "utf8")
    const mod = u.protocol === "https:" ? https : http
    const req = mod.request(u, {
      method: "POST",
      agent: u.protocol === "https:" ? input.agents.https : input.agents.http,
      lookup: guardedLookup(input.guard) as unknown as http.RequestOptions["lookup"],
      headers: {
        ...input.headers,
        "content-type": "application/json",
        "content-length": String(payload.length),
        "user-agent": "Osiris-Webhooks/1"
      }
    })
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${input.timeoutMillis ?? TIMEOUT_MILLIS} ms`)),
      input.timeoutMillis ?? TIMEOUT_MILLIS
    )
    req.on("error", (e: NodeJS.ErrnoException) =>
      settle(refused(e.name === "GuardRefusal" ? `refused: ${e.message}` : e.message || String(e.code))))
    req.on("response", (res) => {
      const chunks: Array<Buffer> = []
      let read = 0
      const done = () =>
        settle({
          status: res.statusCode ?? null,
          latencyMillis: elapsed(),
          error: null,
          response: Buffer.concat(chunks).toString("utf8").slice(0, SNIPPET_CHARS),
          retryAfter: typeof res.headers["retry-after"] === "string" ? res.headers["retry-after"] : null
        })
      res.on("data", (c: Buffer) => {
        if (read < MAX_READ) {
          chunks.push(c)
        }
        read += c.length
        // A receiver that streams on and on is cut off: its status is what counts.
        if (read > MAX_READ) {
          done()
          res.destroy()
        }
      })
      res.on("end", done)
      res.on("error", done)
    })
    req.end(payload)
    return Effect.sync(() =>
      req.destroy()
    )
  })
