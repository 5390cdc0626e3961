/**
 * A local webhook receiver for test suites. It listens on an ephemeral loopback port, verifies each
 * delivery's signature (with the `standardwebhooks` package, a verifier nobody at Osiris wrote, when
 * it runs on the real clock; with Osiris' own `verifyAt` against a sandbox clock otherwise, since
 * `standardwebhooks` always compares against `Date.now()`), records every delivery, and can be told
 * to fail the next N deliveries, answer 410 Gone, or answer late. `waitFor` resolves when a verified
 * event of a type (and matching a predicate) has arrived.
 */
import { Signature } from "@osiris/webhooks"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"

/** A delivery as the sink received it. */
export interface ReceivedDelivery {
  /** The `webhook-id` header: the event id, the same across retries. */
  readonly webhookId: string
  readonly timestamp: number
  readonly signatures: ReadonlyArray<string>
  readonly headers: IncomingHttpHeaders
  /** The raw body, exactly as signed. */
  readonly body: string
  /** Whether the signature verified; deliveries that did not are answered 401. */
  readonly verified: boolean
  /** Why verification failed, when it did. */
  readonly refusal: string | null
  /** The parsed envelope `{type, timestamp, data}` (null when the body is not JSON). */
  readonly event: { readonly type: string; readonly timestamp: string; readonly data: any } | null
  /** The status the sink answered. */
  readonly answered: number
  /** When it arrived (the sink's clock, milliseconds). */
  readonly receivedAt: number
}

/** Options of a sink. */
export interface WebhookSinkOptions {
  /** The secret(s) to verify with; set later with `setSecret` (the host shows it when the endpoint is made). */
  readonly secret?: string | ReadonlyArray<string>
  /** The clock deliveries are checked against (milliseconds); default the real clock. */
  readonly now?: () => number
}

/** A running sink. */
export interface WebhookSink {
  /** The URL to register as an endpoint. */
  readonly url: string
  /** Every delivery received, in arrival order. */
  readonly deliveries: ReadonlyArray<ReceivedDelivery>
  /** The verified deliveries of one event type. */
  readonly received: (type?: string) => ReadonlyArray<ReceivedDelivery>
  /** Secrets to verify with from now on. */
  readonly setSecret: (secret: string | ReadonlyArray<string>) => void
  /** Answers the next `n` deliveries with `status` (default 500). */
  readonly failNext: (n: number, status?: number) => void
  /** Answers every delivery from now on with 410 Gone. */
  readonly gone: () => void
  /** Answers the next `n` deliveries after `millis`. */
  readonly delayNext: (n: number, millis: number) => void
  /** Back to answering 204 at once. */
  readonly reset: () => void
  /** Resolves with the first verified delivery of `type` matching `predicate` (already received or to come). */
  readonly waitFor: (
    type: string,
    predicate?: (d: ReceivedDelivery) => boolean,
    timeoutMillis?: number
  ) => Promise<ReceivedDelivery>
  readonly close: () => Promise<void>
}

const header = (h: IncomingHttpHeaders, name: string) => {
  const v = h[name]
  return typeof v === "string" ? v : Array.isArray(v) ? v[0] ?? "" : ""
}

/** Starts a sink on an ephemeral loopback port. */
export const start = async (options: WebhookSinkOptions = {}): Promise<WebhookSink> => {
  const deliveries: Array<ReceivedDelivery> = []
  let secrets: ReadonlyArray<string> = options.secret === undefined
    ? []
    : typeof options.secret === "string"
    ? [options.secret]
    : options.secret
  let failing: { n: number; status: number } = { n: 0, status: 500 }
  let isGone = false
  let delaying = { n: 0, millis: 0 }
  const now = options.now ?? Date.now
  const waiters = new Set<() => void>()

  const check = (headers: IncomingHttpHeaders, body: string): string | null => {
    if (secrets.length === 0) return "no secret set"
    if (options.now === undefined) {
      // Any of the secrets may have signed (one signature per secret during a rotation).
      const errors: Array<string> = []
      for (const s of secrets) {
        try {
          new Webhook(s).verify(body, {
            "webhook-id": header(headers, "webhook-id"),
            "webhook-timestamp": header(headers, "webhook-timestamp"),
            "webhook-signature": header(headers, "webhook-signature")
          })
          return null
        } catch (e) {
          errors.push(e instanceof Error ? e.message : String(e))
        }
      }
      return errors.join("; ")
    }
    const r = Signature.verifyAt(Math.floor(now() / 1000), secrets, headers, body)
    return r._tag === "Right" ? null : r.left._tag
  }

  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const refusal = check(req.headers, body)
      let event: ReceivedDelivery["event"] = null
      try {
        event = JSON.parse(body)
      } catch {
        event = null
      }
      let status = 204
      if (refusal !== null) status = 401
      else if (isGone) status = 410
      else if (failing.n > 0) {
        failing = { ...failing, n: failing.n - 1 }
        status = failing.status
      }
      const wait = delaying.n > 0 ? delaying.millis : 0
      if (delaying.n > 0) delaying = { ...delaying, n: delaying.n - 1 }
      deliveries.push({
        webhookId: header(req.headers, "webhook-id"),
        timestamp: Number(header(req.headers, "webhook-timestamp")),
        signatures: header(req.headers, "webhook-signature").split(" ").filter((s) => s !== ""),
        headers: req.headers,
        body,
        verified: refusal === null,
        refusal,
        event,
        answered: status,
        receivedAt: now()
      })
      for (const w of waiters) w()
      setTimeout(() => {
        res.writeHead(status, { "content-type": "text/plain" })
        res.end(status === 204 ? undefined : `sink answered ${status}`)
      }, wait)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port

  const received = (type?: string) =>
    deliveries.filter((d) => d.verified && d.answered < 300 && (type === undefined || d.event?.type === type))

  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    get deliveries() {
      return deliveries
    },
    received,
    setSecret: (s) => {
      secrets = typeof s === "string" ? [s] : s
    },
    failNext: (n, status = 500) => {
      failing = { n, status }
    },
    gone: () => {
      isGone = true
    },
    delayNext: (n, millis) => {
      delaying = { n, millis }
    },
    reset: () => {
      failing = { n: 0, status: 500 }
      isGone = false
      delaying = { n: 0, millis: 0 }
    },
    waitFor: (type, predicate = () => true, timeoutMillis = 10_000) =>
      new Promise((resolve, reject) => {
        const find = () => received(type).find(predicate)
        const hit = find()
        if (hit !== undefined) return resolve(hit)
        const timer = setTimeout(() => {
          waiters.delete(poke)
          reject(new Error(`no verified ${type} delivery within ${timeoutMillis} ms (${deliveries.length} received)`))
        }, timeoutMillis)
        const poke = () => {
          const found = find()
          if (found !== undefined) {
            clearTimeout(timer)
            waiters.delete(poke)
            resolve(found)
          }
        }
        waiters.add(poke)
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
