/** Running the engine over a labelled task, and the figures reported for it. */
import { Effect, ManagedRuntime } from "effect"
import { Engine, type Verification } from "../src/Engine.js"
import { Registry, type RegistryBusiness } from "../src/Registry.js"
import type { NameAddressForm } from "../src/SearchRequest.js"
import { WatchlistSource } from "../src/Watchlist.js"

/** An engine over a registry (watchlist screening off: these data sets are not about sanctions). */
export const engineFor = (registry: ReadonlyArray<RegistryBusiness>) => {
  const runtime = ManagedRuntime.make(
    Engine.layerDefaults({ baseUrl: "https://osiris.invalid" }, Registry.layerMemory(registry), {
      watchlist: WatchlistSource.layerEmpty
    })
  )
  return {
    verify: (request: NameAddressForm): Promise<Verification> =>
      runtime.runPromise(Effect.flatMap(Engine, (e) => e.verify({ request }))),
    dispose: () => runtime.dispose()
  }
}

/** Precision, recall and F1 from counts. */
export const prf = (tp: number, fp: number, fn: number) => {
  const p = tp + fp === 0 ? 1 : tp / (tp + fp)
  const r = tp + fn === 0 ? 1 : tp / (tp + fn)
  return { tp, fp, fn, precision: p, recall: r, f1: p + r === 0 ? 0 : (2 * p * r) / (p + r) }
}

/** Formats a number with three decimals. */
export const f3 = (n: number) => n.toFixed(3)
