/**
 * The outbound guard (DECISIONS section 8): Osiris only calls out to public HTTPS addresses. A URL
 * must be `https://`, carry no credentials and no characters that could inject headers; the address
 * it resolves to must be public unicast (not private, loopback, link-local, multicast, carrier-grade
 * NAT, unique-local, reserved, or the cloud metadata address, in IPv4 and IPv6, IPv4-mapped
 * included). Names are checked where the connection is made: `lookup` is the resolver handed to
 * `net.connect`, so the address checked is the address connected to and DNS rebinding cannot slip
 * a private address in after a check. Literal IP hosts never reach a resolver and are checked
 * before connecting. Development mode (`OSIRIS_WEBHOOK_ALLOW_INSECURE=true`) allows `http://` and
 * loopback addresses, nothing else. Classification of addresses is `ipaddr.js`'s `range()`.
 */
import ipaddr from "ipaddr.js"
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns"
import { lookup as dnsLookup } from "node:dns"
import { isIP } from "node:net"

/** What the guard allows beyond public HTTPS. */
export interface GuardOptions {
  /** Allow `http://` and loopback addresses (local development and tests only). */
  readonly allowInsecure: boolean
}

/** The strict guard. */
export const strict: GuardOptions = { allowInsecure: false }

/** Why an address may not be called, or undefined when it may. */
export const addressRefusal = (address: string, options: GuardOptions): string | undefined => {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`
  let ip: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address)
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address()
  const range = ip.range()
  if (range === "unicast") return undefined
  if (range === "loopback" && options.allowInsecure) return undefined
  return `${address} is a ${range} address`
}

/** The greatest length of a URL (the contract's URL bound). */
export const MAX_URL_LENGTH = 2083

/** Why a URL may not be called, or undefined when it may (before any name resolution). */
export const urlRefusal = (url: string, options: GuardOptions): string | undefined => {
  if (url.length === 0 || url.length > MAX_URL_LENGTH) return `a URL has 1 to ${MAX_URL_LENGTH} characters`
  // Printable ASCII only: no spaces, CR/LF, tabs or other control characters (header injection).
  if (!/^[\x21-\x7e]+$/.test(url)) return "the URL has spaces, control or non-ASCII characters"
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return "the URL cannot be parsed"
  }
  if (u.protocol !== "https:" && !(u.protocol === "http:" && options.allowInsecure)) {
    return options.allowInsecure ? "the URL must be http or https" : "the URL must be https"
  }
  if (u.username !== "" || u.password !== "") return "the URL must not carry credentials"
  if (u.hash !== "") return "the URL must not have a fragment"
  const host = hostOf(u)
  if (host === "") return "the URL has no host"
  return isIP(host) === 0 ? undefined : addressRefusal(host, options)
}

/** The host of a URL without IPv6 brackets. */
export const hostOf = (u: URL): string => u.hostname.replace(/^\[(.*)\]$/, "$1")

/** A refusal by the guard, as the error of a connection attempt. */
export class GuardRefusal extends Error {
  override readonly name = "GuardRefusal"
  readonly code = "EOSIRISGUARD"
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | ReadonlyArray<LookupAddress>,
  family?: number
) => void

/**
 * A resolver for `net.connect` / `http.request` that resolves every address of the name and refuses
 * the connection when any of them may not be called (a name with one private address is refused
 * whole, so round-robin answers cannot alternate past the check).
 */
export const guardedLookup = (options: GuardOptions) =>
(
  hostname: string,
  lookupOptions: LookupOneOptions | LookupAllOptions | number | LookupCallback,
  callback?: LookupCallback
): void => {
  const cb = (typeof lookupOptions === "function" ? lookupOptions : callback) as LookupCallback
  const opts: LookupOneOptions | LookupAllOptions = typeof lookupOptions === "object"
    ? lookupOptions
    : typeof lookupOptions === "number"
    ? { family: lookupOptions }
    : {}
  dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
    if (err !== null) return cb(err, [])
    for (const a of addresses) {
      const refusal = addressRefusal(a.address, options)
      if (refusal !== undefined) return cb(new GuardRefusal(`${hostname} resolves to ${refusal}`), [])
    }
    if (addresses.length === 0) return cb(new GuardRefusal(`${hostname} has no address`), [])
    if ((opts as LookupAllOptions).all === true) return cb(null, addresses)
    return cb(null, addresses[0]!.address, addresses[0]!.family)
  })
}

/** Resolves a name and applies the guard (for checking an endpoint when it is registered). */
export const checkName = (hostname: string, options: GuardOptions): Promise<string | undefined> =>
  new Promise((resolve) => {
    if (isIP(hostname) !== 0) return resolve(addressRefusal(hostname, options))
    guardedLookup(options)(hostname, { all: true }, (err) => {
      if (err instanceof GuardRefusal) resolve(err.message)
      // A name that does not resolve now may later; deliveries are checked again at connect time.
      else resolve(undefined)
    })
  })
