import { describe, expect, layer } from "@effect/vitest"
import { Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const root = join(import.meta.dirname, "..", "..", "..")

describe("the API's own description", () => {
  layer(TestHost.layer(Backends.all()[0]!, { sandboxRegistry: Synthetic.registry(3, 10) }), { timeout: "60 seconds" })(
    (it) => {
      it.effect(
        "GET /openapi.json is OpenAPI 3.1, clean under @redocly/cli lint, and says what the server does",
        () =>
          Effect.gen(function*() {
            const { base: url } = yield* TestHost.client
            const spec = yield* Effect.promise(async () => (await fetch(`${url}/openapi.json`)).json() as Promise<any>)
            expect(spec.openapi).toBe("3.1.0")
            expect(spec.components.securitySchemes.apiKey).toEqual({ type: "apiKey", name: "X-API-Key", in: "header" })
            const create = spec.paths["/searches"].post
            expect(Object.keys(create.responses)).toEqual(
              expect.arrayContaining(["201", "202", "401", "403", "413", "415", "422", "429", "500", "503"])
            )
            expect(create.responses["422"].content["application/json"].schema.$ref).toBe(
              "#/components/schemas/HTTPValidationError"
            )
            expect(Object.keys(create.responses["202"].headers)).toEqual(
              expect.arrayContaining(["Location", "X-Resource-Id", "Vary", "Retry-After", "Idempotent-Replayed"])
            )
            expect(create.parameters.map((p: any) => p.name)).toEqual(
              expect.arrayContaining(["Prefer", "Idempotency-Key"])
            )
            for (
              const path of [
                "/businesses/{id}",
                "/autocomplete/businesses",
                "/webhooks/{id}/rotate_secret",
                "/events/{id}/redeliver",
                "/usage",
                "/naics_prediction_requests/{id}"
              ]
            ) expect(spec.paths[path], path).toBeDefined()
            const file = join(mkdtempSync(join(tmpdir(), "osiris-openapi-")), "openapi.json")
            writeFileSync(file, JSON.stringify(spec))
            const lint = spawnSync(join(root, "node_modules", ".bin", "redocly"), ["lint", file, "--format=summary"], {
              encoding: "utf8",
              env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
            })
            const out = `${lint.stdout}${lint.stderr}`
            expect(out).toContain("Your API description is valid")
            expect(out).not.toMatch(/\berror\b\s+\S+: \d+/)
            expect(out).not.toMatch(/\bwarning\b\s+\S+: \d+/)
            expect(lint.status).toBe(0)
            // The interactive reference is served from the npm package: no network needed.
            const docs = yield* Effect.promise(async () => {
              const r = await fetch(`${url}/docs`)
              return { status: r.status, text: await r.text() }
            })
            expect(docs.status).toBe(200)
            expect(docs.text).not.toMatch(/<script[^>]+src="https?:/)
          }),
        { timeout: 60_000 }
      )
    }
  )
})
