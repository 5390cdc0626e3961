/**
 * `business_website_match` and `business_website_redirect_match` (DECISIONS section 6): the same
 * registrable domain (scheme, `www`, path and case ignored) is a match; a match found because one
 * site redirects to the other's domain also sets the redirect flag. Both are `null` when no
 * website was submitted or none is known. Redirects come from the `WebsiteResolver` service.
 */
import { Context, Effect, Layer } from "effect"
import { registrableDomain } from "./Contact.js"

/** Follows a website's redirects and answers the registrable domain it ends on. */
export class WebsiteResolver extends Context.Tag("@osiris/core/WebsiteResolver")<WebsiteResolver, {
  /** Final registrable domain after redirects; undefined when unknown or unreachable. */
  readonly finalDomain: (website: string) => Effect.Effect<string | undefined>
}>() {
  /** No redirect knowledge: every website resolves to its own domain (no I/O). */
  static readonly layerNone = Layer.succeed(WebsiteResolver, {
    finalDomain: (website) => Effect.succeed(registrableDomain(website))
  })

  /** Redirects from a table of domain -> final domain (sandbox and tests). */
  static readonly layerMemory = (redirects: Readonly<Record<string, string>>) =>
    Layer.succeed(WebsiteResolver, {
      finalDomain: (website) =>
        Effect.sync(() => {
          const d = registrableDomain(website)
          return d === undefined ? undefined : registrableDomain(redirects[d] ?? d)
        })
    })
}

/** The two website verdicts. */
export interface WebsiteVerdict {
  readonly match: boolean | null
  readonly redirectMatch: boolean | null
}

/** Compares the submitted website with the business's known websites. */
export const compare = (input: string | undefined, known: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const inputDomain = input === undefined ? undefined : registrableDomain(input)
    const knownDomains = known.map(registrableDomain).filter((d): d is string => d !== undefined)
    if (input === undefined || knownDomains.length === 0) return { match: null, redirectMatch: null } as WebsiteVerdict
    if (inputDomain !== undefined && knownDomains.includes(inputDomain)) {
      return { match: true, redirectMatch: false } as WebsiteVerdict
    }
    const resolver = yield* WebsiteResolver
    const inputFinal = yield* resolver.finalDomain(input)
    for (const k of known) {
      const kd = registrableDomain(k)
      const kFinal = yield* resolver.finalDomain(k)
      if (
        (inputFinal !== undefined && (inputFinal === kd || inputFinal === kFinal)) ||
        (kFinal !== undefined && kFinal === inputDomain)
      ) return { match: true, redirectMatch: true } as WebsiteVerdict
    }
    return { match: false, redirectMatch: false } as WebsiteVerdict
  })
