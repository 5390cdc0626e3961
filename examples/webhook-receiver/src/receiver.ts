/**
 * A minimal webhook receiver: verifies every delivery with the `standardwebhooks` package (on the
 * raw body, before parsing), answers 401 when it does not verify, and handles each event once,
 * however often it is delivered (deliveries are at least once; `webhook-id` is stable across retries).
 *
 *   OSIRIS_WEBHOOK_SECRET=whsec_... PORT=9000 npx tsx src/receiver.ts
 */
import { createServer, type Server } from "node:http"
import { Webhook } from "standardwebhooks"

/** What the receiver did with a delivery. */
export type Outcome = "handled" | "duplicate" | "refused"

/** Makes a receiver; `handle` sees each verified event once. */
export const receiver = (secret: string, handle: (event: { type: string; data: unknown }) => void) => {
  const verifier = new Webhook(secret)
  // A real receiver keeps this in its database, with the effects of handling, in one transaction.
  const seen = new Set<string>()
  const outcomes: Array<Outcome> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8")
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? "")
      }
      let event: { type: string; data: unknown }
      try {
        event = verifier.verify(raw, headers) as { type: string; data: unknown }
      } catch {
        outcomes.push("refused")
        res.writeHead(401).end()
        return
      }
      if (seen.has(headers["webhook-id"])) {
        outcomes.push("duplicate")
      } else {
        seen.add(headers["webhook-id"])
        handle(event)
        outcomes.push("handled")
      }
      res.writeHead(204).end()
    })
  })
  return { server, outcomes }
}

if (process.argv[1]?.endsWith("receiver.ts")) {
  const secret = process.env.OSIRIS_WEBHOOK_SECRET
  if (secret === undefined) {
    console.error("set OSIRIS_WEBHOOK_SECRET to the endpoint's whsec_ secret")
    process.exit(2)
  }
  const { server } = receiver(secret, (e) => console.log(`${e.type}: ${JSON.stringify(e.data).slice(0, 120)}`))
  server.listen(Number(process.env.PORT ?? 9000), () => console.log(`listening on ${process.env.PORT ?? 9000}`))
}
