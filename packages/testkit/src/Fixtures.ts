/**
 * The sandbox fixture registry the host's sandbox keys search: 120 fictional businesses with complete
 * contract records (core's `Sandbox.registry()`, shipped as data). Test suites read it to pick
 * businesses to search for.
 */
import { Sandbox } from "@osiris/core"
import { Providers } from "@osiris/http"

/** Every fixture business. */
export const registry = Sandbox.registry

/** A fixture business by name (exact), for readable tests. */
export const byName = (name: string) => Sandbox.registry().find((b) => b.name === name)

/** The deterministic orderable providers sandbox keys get (no network; NAICS is the real classifier). */
export const providers = Providers.sandbox
