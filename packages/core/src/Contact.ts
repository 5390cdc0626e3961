/**
 * Contact details to comparable keys: websites to registrable domains (public suffix list, via
 * tldts), phone numbers to E.164 (libphonenumber-js, US by default), e-mail addresses to lower
 * case with their domain.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js"
import { parse as parseDomain } from "tldts"

/** The registrable domain of a website ("https://www.Shop.Example.co.uk/x" -> "example.co.uk"). */
export const registrableDomain = (website: string): string | undefined => {
  const trimmed = website.trim()
  if (trimmed.length === 0) return undefined
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`
  const parsed = parseDomain(withScheme, { allowPrivateDomains: false })
  return parsed.domain === null ? undefined : parsed.domain.toLowerCase()
}

/** E.164 form of a phone number ("(217) 555-0100" -> "+12175550100"); undefined when not a valid number. */
export const e164 = (phone: string, defaultCountry: "US" = "US"): string | undefined => {
  const p = parsePhoneNumberFromString(phone, defaultCountry)
  return p !== undefined && p.isValid() ? p.number : undefined
}

/** The last seven digits of a phone number: what remains comparable when an area code is missing. */
export const localDigits = (phone: string): string | undefined => {
  const digits = phone.replace(/\D/g, "")
  return digits.length >= 7 ? digits.slice(-7) : undefined
}

/** A normalised e-mail address and its domain; undefined when it is not one. */
export const email = (value: string): { readonly address: string; readonly domain: string } | undefined => {
  const m = /^\s*([^\s@]+)@([^\s@]+\.[^\s@]+)\s*$/.exec(value)
  if (m === null) return undefined
  const domain = m[2]!.toLowerCase()
  return { address: `${m[1]}@${domain}`, domain }
}
