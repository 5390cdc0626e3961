import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Contact, Website } from "../src/index.js"

describe("Contact", () => {
  it("reduces websites to registrable domains with the public suffix list", () => {
    expect(Contact.registrableDomain("https://www.Shop.Example.co.uk/x?y=1")).toBe("example.co.uk")
    expect(Contact.registrableDomain("acme.com")).toBe("acme.com")
    expect(Contact.registrableDomain("HTTP://WWW.ACME.COM/about")).toBe("acme.com")
    expect(Contact.registrableDomain("not a website")).toBeUndefined()
  })

  it("writes phone numbers as E.164 and keeps the local seven digits", () => {
    expect(Contact.e164("(217) 555-0123")).toBe("+12175550123")
    expect(Contact.e164("+44 20 7946 0958")).toBe("+442079460958")
    expect(Contact.e164("12")).toBeUndefined()
    expect(Contact.localDigits("310/246-1501")).toBe("2461501")
  })

  it("normalises e-mail addresses", () => {
    expect(Contact.email(" Ops@ACME.Example ")).toStrictEqual({ address: "Ops@acme.example", domain: "acme.example" })
    expect(Contact.email("nope")).toBeUndefined()
  })
})

describe("Website.compare (DECISIONS section 6)", () => {
  const run = (input: string | undefined, known: ReadonlyArray<string>, redirects: Record<string, string> = {}) =>
    Effect.runSync(Website.compare(input, known).pipe(Effect.provide(Website.WebsiteResolver.layerMemory(redirects))))

  it("matches the same registrable domain ignoring scheme, www, path and case", () => {
    expect(run("https://WWW.acme.com/contact", ["http://acme.com"])).toStrictEqual({
      match: true,
      redirectMatch: false
    })
  })

  it("matches through a redirect and says so", () => {
    expect(run("acme-widgets.com", ["acme.com"], { "acme-widgets.com": "https://www.acme.com/" })).toStrictEqual({
      match: true,
      redirectMatch: true
    })
    expect(run("acme.com", ["acme-widgets.com"], { "acme-widgets.com": "acme.com" })).toStrictEqual({
      match: true,
      redirectMatch: true
    })
  })

  it("is false for other domains and null when there is nothing to compare", () => {
    expect(run("other.com", ["acme.com"])).toStrictEqual({ match: false, redirectMatch: false })
    expect(run(undefined, ["acme.com"])).toStrictEqual({ match: null, redirectMatch: null })
    expect(run("acme.com", [])).toStrictEqual({ match: null, redirectMatch: null })
  })
})
