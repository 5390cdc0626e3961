/**
 * The baseline `npm run bench:http` compares the host with: a bare `node:http` server that parses the
 * same JSON body and inserts one row into the same database (`POST /rows`), and reads one row by id
 * (`GET /rows/<id>`), on a `pg` pool of the host's size. Prints its URL when it listens.
 */
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import pg from "pg"

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
await pool.query(
  "create table if not exists bench_rows (id uuid primary key, body jsonb not null, created_at timestamptz not null default now())"
)

const server = createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (d: Buffer) => chunks.push(d))
  req.on("end", async () => {
    try {
      if (req.method === "POST" && req.url === "/rows") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown
        const id = randomUUID()
        await pool.query("insert into bench_rows (id, body) values ($1, $2)", [id, body])
        res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ id, body }))
      } else if (req.method === "GET" && req.url?.startsWith("/rows/")) {
        const r = await pool.query("select id, body, created_at from bench_rows where id = $1", [req.url.slice(6)])
        res.writeHead(r.rows.length === 0 ? 404 : 200, { "content-type": "application/json" }).end(
          JSON.stringify(r.rows[0] ?? {})
        )
      } else {
        res.writeHead(404).end()
      }
    } catch (e) {
      res.writeHead(500).end(String(e))
    }
  })
})
server.listen(0, "127.0.0.1", () => {
  console.log(`baseline listening on http://127.0.0.1:${(server.address() as { port: number }).port}`)
})
