/**
 * The sandbox's fixtures and deterministic services: the registry the host's sandbox keys search
 * (120 fictional businesses with complete contract records, core's `Sandbox.registry()`, shipped as
 * data), the services with the magic inputs of the README's table, the orderable providers, and the
 * seeded synthetic registry generator for benchmarks and large suites.
 */
import { type Registry, Sandbox, Synthetic, type Tin, type Website } from "@osiris/core"
import { Providers } from "@osiris/http"
import type { Layer } from "effect"

/** Every fixture business. */
export const registry = Sandbox.registry

/** A fixture business by name (exact), for readable tests. */
export const byName = (name: string) => Sandbox.registry().find((b) => b.name === name)

/** The sandbox registry as a service (fixtures by default; "Slowpoke" names are slow). */
export const registryLayer: (
  records?: ReadonlyArray<Registry.RegistryBusiness>
) => Layer.Layer<Registry.Registry> = Sandbox.layerRegistry

/** The sandbox's TIN authority (the registry's EINs; unavailable for `Sandbox.TIN_UNAVAILABLE`). */
export const tinAuthority: Layer.Layer<Tin.TinAuthority, never, Registry.Registry> = Sandbox.layerTinAuthority

/** The sandbox's website resolver (`<name>-redirect.<tld>` redirects to `<name>.<tld>`). */
export const websites: Layer.Layer<Website.WebsiteResolver> = Sandbox.layerWebsites

/** The deterministic orderable providers sandbox keys get (no network; NAICS is the real classifier). */
export const providers = Providers.sandbox

/** A seeded, realistic synthetic registry of any size: `synthetic(seed, size)`. */
export const synthetic = Synthetic.registry
