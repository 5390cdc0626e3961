import { HttpApp, HttpServerResponse } from "@effect/platform"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Errors } from "../src/index.js"

const serve = (app: HttpApp.Default<any, never>) => HttpApp.toWebHandler(Errors.middleware(app))

describe("Errors.middleware (DECISIONS section 5)", () => {
  it("storage failures are 503 with the documented body", async () => {
    const handler = serve(
      Effect.die(
        new SqlError({
          cause: new Error("connect ECONNREFUSED 127.0.0.1:5432"),
          message: "PgClient: Failed to connect"
        })
      )
    )
    const r = await handler(new Request("http://x/searches"))
    expect(r.status).toBe(503)
    expect(r.headers.get("retry-after")).toBe("5")
    expect(await r.json()).toStrictEqual({ detail: "Storage is unavailable." })
  })

  it("anything else is 500 with nothing internal in the body", async () => {
    const handler = serve(Effect.die(new Error("secret internals at /srv/osiris/db.ts:42")))
    const r = await handler(new Request("http://x/searches"))
    expect(r.status).toBe(500)
    const text = await r.text()
    expect(JSON.parse(text)).toStrictEqual({ detail: "Internal server error" })
    expect(text).not.toContain("secret")
  })

  it("leaves answered requests alone", async () => {
    const handler = serve(Effect.succeed(HttpServerResponse.unsafeJson({ ok: true }, { status: 201 })))
    const r = await handler(new Request("http://x/"))
    expect(r.status).toBe(201)
  })
})
