import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Guard, Sender } from "../src/index.js"

const strict = Guard.strict
const dev = { allowInsecure: true }

describe("addressRefusal", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fd00:ec2::254", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["64:ff9b::a00:1", "rfc6052"],
    ["2002:a00:1::", "6to4"]
  ])("refuses %s (%s)", (address, range) => {
    expect(Guard.addressRefusal(address, strict)).toBe(`${address} is a ${range} address`)
  })

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"])("allows public %s", (address) => {
    expect(Guard.addressRefusal(address, strict)).toBeUndefined()
  })

  it("development mode allows loopback, and nothing else more", () => {
    expect(Guard.addressRefusal("127.0.0.1", dev)).toBeUndefined()
    expect(Guard.addressRefusal("::1", dev)).toBeUndefined()
    expect(Guard.addressRefusal("10.0.0.1", dev)).toBeDefined()
    expect(Guard.addressRefusal("169.254.169.254", dev)).toBeDefined()
  })
})

describe("urlRefusal", () => {
  it("requires https unless in development mode", () => {
    expect(Guard.urlRefusal("http://example.com/h", strict)).toBe("the URL must be https")
    expect(Guard.urlRefusal("http://example.com/h", dev)).toBeUndefined()
    expect(Guard.urlRefusal("https://example.com/h", strict)).toBeUndefined()
    expect(Guard.urlRefusal("ftp://example.com/h", dev)).toBe("the URL must be http or https")
  })

  it("refuses credentials, header-injection characters, fragments and over-long URLs", () => {
    expect(Guard.urlRefusal("https://u:p@example.com/", strict)).toBe("the URL must not carry credentials")
    expect(Guard.urlRefusal("https://u@example.com/", strict)).toBe("the URL must not carry credentials")
    for (
      const bad of ["https://example.com/\r\nX: 1", "https://example.com/\n", "https://exa mple.com/", "https://é.com"]
    ) {
      expect(Guard.urlRefusal(bad, strict)).toBe("the URL has spaces, control or non-ASCII characters")
    }
    expect(Guard.urlRefusal("https://example.com/#x", strict)).toBe("the URL must not have a fragment")
    expect(Guard.urlRefusal(`https://example.com/${"a".repeat(2100)}`, strict)).toContain("2083")
    expect(Guard.urlRefusal("not a url", strict)).toBeDefined()
  })

  it("refuses literal private addresses, bracketed IPv6 included", () => {
    expect(Guard.urlRefusal("https://[::1]:8443/x", strict)).toBe("::1 is a loopback address")
    expect(Guard.urlRefusal("https://169.254.169.254/latest", strict)).toBe("169.254.169.254 is a linkLocal address")
    expect(Guard.urlRefusal("https://0x7f.1/", strict)).toBe("127.0.0.1 is a loopback address")
  })
})

/** A real server on loopback that counts the requests reaching it. */
const loopbackServer = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ port: number; hits: () => number; close: () => Promise<void> }>((resolve) => {
      let hits = 0
      const server = createServer((_, res) => {
        hits++
        res.writeHead(204).end()
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          port: (server.address() as AddressInfo).port,
          hits: () => hits,
          close: () => new Promise((r) => server.close(() => r()))
        }))
    })
  ),
  (s) => Effect.promise(s.close)
)

describe("the guard at connect time", () => {
  const send = (url: string, guard: Guard.GuardOptions) =>
    Sender.post({ url, headers: {}, body: "{}", guard, agents: Sender.makeAgents(guard), timeoutMillis: 2000 })

  it.scoped("refuses loopback by address and by a name that resolves to it; nothing reaches the server", () =>
    Effect.gen(function*() {
      const server = yield* loopbackServer
      for (
        const url of [
          `https://127.0.0.1:${server.port}/`,
          `https://localhost:${server.port}/`,
          `https://[::1]:${server.port}/`,
          `https://10.0.0.1:${server.port}/`,
          `https://169.254.169.254/`
        ]
      ) {
        const r = yield* send(url, strict)
        expect(r.status).toBeNull()
        expect(r.error).toMatch(/^refused: /)
      }
      // http:// to loopback is refused in strict mode before any connection.
      expect((yield* send(`http://127.0.0.1:${server.port}/`, strict)).error).toBe("refused: the URL must be https")
      // The name is checked where the connection is made: `localhost` resolves to loopback.
      expect((yield* send(`https://localhost:${server.port}/`, strict)).error).toContain("localhost resolves to")
      expect(server.hits()).toBe(0)
    }))

  it.scoped("development mode reaches a loopback receiver over http, by address and by name", () =>
    Effect.gen(function*() {
      const server = yield* loopbackServer
      expect((yield* send(`http://127.0.0.1:${server.port}/`, dev)).status).toBe(204)
      expect((yield* send(`http://localhost:${server.port}/`, dev)).status).toBe(204)
      expect(server.hits()).toBe(2)
    }))

  it.scoped("does not follow redirects and keeps a bounded snippet of the answer", () =>
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(
        Effect.promise(() =>
          new Promise<{ port: number; close: () => Promise<void> }>((resolve) => {
            const s = createServer((req, res) => {
              if (req.url === "/moved") res.writeHead(302, { location: "http://169.254.169.254/" }).end()
              else res.writeHead(500).end("x".repeat(100_000))
            })
            s.listen(0, "127.0.0.1", () =>
              resolve({
                port: (s.address() as AddressInfo).port,
                close: () =>
                  new Promise((r) => {
                    s.closeAllConnections()
                    s.close(() => r())
                  })
              }))
          })
        ),
        (s) => Effect.promise(s.close)
      )
      expect((yield* send(`http://127.0.0.1:${server.port}/moved`, dev)).status).toBe(302)
      const big = yield* send(`http://127.0.0.1:${server.port}/big`, dev)
      expect(big.status).toBe(500)
      expect(big.response).toHaveLength(Sender.SNIPPET_CHARS)
    }))

  it.live("gives up after the time limit", () =>
    Effect.gen(function*() {
      const hanging = createServer(() => {})
      yield* Effect.promise(() => new Promise<void>((r) => hanging.listen(0, "127.0.0.1", () => r())))
      const port = (hanging.address() as AddressInfo).port
      const r = yield* Sender.post({
        url: `http://127.0.0.1:${port}/`,
        headers: {},
        body: "{}",
        guard: dev,
        agents: Sender.makeAgents(dev),
        timeoutMillis: 200
      })
      hanging.closeAllConnections()
      hanging.close()
      expect(r.status).toBeNull()
      expect(r.error).toBe("no answer within 200 ms")
    }))
})
