/** The exported `HttpApi` gives clients a typed `HttpApiClient`: every call here is typed end to end. */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Synthetic } from "@osiris/core"
import { Backends, TestHost } from "@osiris/testkit"
import { Effect, Either } from "effect"
import { Api } from "../src/index.js"

const registry = Synthetic.registry(71, 30)
const target = registry[4]!

describe("the typed TestHost.client", () => {
  layer(TestHost.layer(Backends.all()[0]!, { sandboxRegistry: registry }), { timeout: "60 seconds" })((it) => {
    it.effect("creates, reads and lists searches, reads businesses and platform resources", () =>
      Effect.gen(function*() {
        const { base, key } = yield* TestHost.client
        const osiris = yield* HttpApiClient.make(Api.OsirisApi, {
          baseUrl: base,
          transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("x-api-key", key))
        })
        const a = target.addresses[0]!
        const created = yield* osiris.searches.create({
          payload: { name: target.name, address: `${a.street}, ${a.city}, ${a.state} ${a.zip}` }
        })
        expect(created.state).toBe("COMPLETED")
        expect(created.business?.id).toBe(target.id)
        const read = yield* osiris.searches.get({ path: { id: created.id } })
        expect(read).toEqual(created)
        const status = yield* osiris.searches.status({ path: { id: created.id } })
        expect(status).toEqual({ id: created.id, state: "COMPLETED", updated_at: created.updated_at })
        const page = yield* osiris.searches.list()
        expect(page.data.map((s) => s.id)).toContain(created.id)
        const business = yield* osiris.businesses.get({ path: { id: target.id } })
        expect(business.name).toBe(target.name)
        const keys = yield* osiris.apiKeys.list()
        expect(keys.data.length).toBeGreaterThan(0)
        expect((yield* osiris.webhooks.list()).data).toEqual([])
        expect((yield* osiris.usage.daily()).total).toBe(0)
        expect(yield* osiris.health.live()).toEqual({ status: "ok" })
        // A refused key is the declared, typed error.
        const anonymous = yield* HttpApiClient.make(Api.OsirisApi, { baseUrl: base })
        const refused = yield* Effect.either(anonymous.searches.get({ path: { id: created.id } }))
        expect(Either.isLeft(refused) && refused.left instanceof Api.Unauthorized).toBe(true)
        if (Either.isLeft(refused) && refused.left instanceof Api.Unauthorized) {
          expect(refused.left.detail).toBe("Missing API key: send it in the X-API-Key header.")
        }
      }).pipe(Effect.provide(FetchHttpClient.layer)))
  })
})
