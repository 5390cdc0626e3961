/**
 * The reference host, assembled: storage (migrated at start), repositories, the engines per
 * environment, and the HTTP API. Until the testkit's fixture registry lands, the sandbox registry is
 * a seeded synthetic registry (`Synthetic.registry(2026, 500)`); the production registry is the
 * operator's (empty here until `osiris registry import` lands).
 */
import { HttpApiBuilder, HttpApiScalar, HttpMiddleware } from "@effect/platform"
import { Engine, Ids, Registry, Synthetic } from "@osiris/core"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { OsirisApi } from "./Api.js"
import * as ApiKeysHttp from "./ApiKeys/Http.js"
import { ApiKeysRepo } from "./ApiKeys/Repo.js"
import * as Auth from "./Auth.js"
import * as Errors from "./Errors.js"
import * as Health from "./Health.js"
import { IdempotencyRepo } from "./Idempotency/Repo.js"
import * as SearchesHttp from "./Searches/Http.js"
import { SearchesRepo } from "./Searches/Repo.js"
import { Engines } from "./Searches/Worker.js"
import * as Worker from "./Searches/Worker.js"
import * as Migrations from "./Storage/Migrations.js"

/** Serving the API with the documented bodies for unanswered failures (500/503) and a request log. */
export const serve = (options: { readonly log?: boolean } = {}) =>
  HttpApiBuilder.serve((
    app
  ) => (options.log === true ? HttpMiddleware.logger(Errors.middleware(app)) : Errors.middleware(app)))

/** What the host needs to know. */
export interface HostConfig {
  readonly baseUrl: string
  readonly sandboxRegistry?: ReadonlyArray<Registry.RegistryBusiness>
  readonly productionRegistry?: ReadonlyArray<Registry.RegistryBusiness>
}

const engineFor = (baseUrl: string, records: ReadonlyArray<Registry.RegistryBusiness>) =>
  Effect.provide(Engine.Engine, Engine.Engine.layerDefaults({ baseUrl }, Registry.Registry.layerMemory(records)))

/** The engines per environment. */
export const layerEngines = (config: HostConfig) =>
  Layer.effect(
    Engines,
    Effect.all({
      SANDBOX: engineFor(config.baseUrl, config.sandboxRegistry ?? Synthetic.registry(2026, 500)),
      PRODUCTION: engineFor(config.baseUrl, config.productionRegistry ?? [])
    })
  )

/** Repositories on a migrated database (requires the database layer). */
export const layerRepos = Layer.mergeAll(ApiKeysRepo.layer, SearchesRepo.layer, IdempotencyRepo.layer).pipe(
  Layer.provideMerge(Layer.effectDiscard(Migrations.run)),
  Layer.provideMerge(Ids.Ids.layer)
)

/** A background worker that claims and runs due searches (requires the repositories and engines). */
export const layerWorker = Layer.scopedDiscard(Effect.forkScoped(Worker.worker(`worker-${randomUUID()}`)))

/** The HTTP API's handlers (requires the repositories and engines). */
export const layerApi = (config: HostConfig) => {
  const api = HttpApiBuilder.api(OsirisApi).pipe(
    Layer.provide(SearchesHttp.layer),
    Layer.provide(ApiKeysHttp.layer),
    Layer.provide(Health.layer),
    Layer.provide(Auth.layer)
  )
  return Layer.mergeAll(
    api,
    // The OpenAPI document and an interactive reference (Scalar, inlined from the npm package: no network).
    HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" }).pipe(Layer.provide(api)),
    HttpApiScalar.layer({ path: "/docs" }).pipe(Layer.provide(api)),
    layerWorker
  ).pipe(Layer.provide(layerEngines(config)))
}
