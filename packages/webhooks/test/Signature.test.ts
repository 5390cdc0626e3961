import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import { Webhook } from "standardwebhooks"
import { Signature } from "../src/index.js"

const secret = Signature.secretFrom(new Uint8Array(32).map((_, i) => i * 7 + 1))
const other = Signature.secretFrom(new Uint8Array(32).map((_, i) => 255 - i))
const body = JSON.stringify({
  type: "APIKey.created",
  timestamp: "2026-11-21T12:00:00.000000",
  data: { id: "x", note: "é" }
})
const now = 1_790_000_000
const signed = (secrets: ReadonlyArray<string> = [secret], at = now, payload: string = body) =>
  Signature.headersFor(secrets, "msg_2Kx", at, payload)

const refusal = (
  r: Either.Either<unknown, Signature.VerificationError>
) => (Either.isLeft(r) ? r.left._tag : "accepted")

describe("Signature (Standard Webhooks)", () => {
  it("signs with v1 HMAC-SHA256 over id.timestamp.body and verifies its own deliveries", () => {
    const headers = signed()
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
    const r = Signature.verifyAt(now, secret, headers, body)
    expect(Either.getOrThrow(r)).toStrictEqual({ id: "msg_2Kx", timestamp: now, body })
    expect(Either.isRight(Signature.verifyAt(now, secret, headers, Buffer.from(body)))).toBe(true)
  })

  it("makes whsec_ secrets of 32 bytes in standard base64", async () => {
    const s = await Effect.runPromise(Signature.newSecret)
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Either.getOrThrow(Signature.secretBytes(s))).toHaveLength(32)
    expect(Either.getOrThrow(Signature.secretBytes(s.slice(6)))).toHaveLength(32)
    expect(refusal(Signature.secretBytes("whsec_not-base64_!"))).toBe("InvalidSecret")
  })

  it("is accepted by the standardwebhooks library, and accepts what it signs", () => {
    const wh = new Webhook(secret)
    const headers = Signature.headersFor([secret], "msg_real", Math.floor(Date.now() / 1000), body)
    expect(wh.verify(body, headers)).toStrictEqual(JSON.parse(body))
    const theirs = wh.sign("msg_theirs", new Date(), body)
    const r = Signature.verify(secret, {
      "Webhook-Id": "msg_theirs",
      "Webhook-Timestamp": String(Math.floor(Date.now() / 1000)),
      "Webhook-Signature": theirs
    }, body)
    expect(Either.isRight(r)).toBe(true)
  })

  it("refuses a tampered body and a wrong secret", () => {
    expect(refusal(Signature.verifyAt(now, secret, signed(), body.replace("é", "e")))).toBe("SignatureMismatch")
    expect(refusal(Signature.verifyAt(now, other, signed(), body))).toBe("SignatureMismatch")
    expect(() =>
      new Webhook(other).verify(body, Signature.headersFor([secret], "m", Math.floor(Date.now() / 1000), body))
    )
      .toThrow()
  })

  it("refuses old and future timestamps beyond five minutes, and malformed ones", () => {
    expect(Either.isRight(Signature.verifyAt(now + 299, secret, signed(), body))).toBe(true)
    const old = Signature.verifyAt(now + 301, secret, signed(), body)
    expect(Either.isLeft(old) && old.left).toMatchObject({
      _tag: "TimestampOutOfTolerance",
      direction: "past",
      skewSeconds: 301
    })
    const future = Signature.verifyAt(now - 301, secret, signed(), body)
    expect(Either.isLeft(future) && future.left).toMatchObject({ _tag: "TimestampOutOfTolerance", direction: "future" })
    expect(refusal(Signature.verifyAt(now, secret, { ...signed(), "webhook-timestamp": "soon" }, body))).toBe(
      "MalformedTimestamp"
    )
  })

  it("names the missing header", () => {
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
      const headers: Record<string, string> = { ...signed() }
      delete headers[name]
      const r = Signature.verifyAt(now, secret, headers, body)
      expect(Either.isLeft(r) && r.left).toMatchObject({ _tag: "MissingHeader", header: name })
    }
  })

  it("accepts several signatures when one is valid (rotation), ignoring unknown versions and junk", () => {
    const rotation = signed([other, secret])
    expect(rotation["webhook-signature"].split(" ")).toHaveLength(2)
    expect(Either.isRight(Signature.verifyAt(now, secret, rotation, body))).toBe(true)
    expect(Either.isRight(Signature.verifyAt(now, other, rotation, body))).toBe(true)
    const live = Signature.headersFor([other, secret], "msg_live", Math.floor(Date.now() / 1000), body)
    expect(new Webhook(secret).verify(body, live)).toStrictEqual(JSON.parse(body))
    expect(new Webhook(other).verify(body, live)).toStrictEqual(JSON.parse(body))
    const junk = `v2,abc v1,not*base64 v1,AAAA ${signed()["webhook-signature"]}`
    expect(Either.isRight(Signature.verifyAt(now, secret, { ...signed(), "webhook-signature": junk }, body))).toBe(true)
    expect(refusal(Signature.verifyAt(now, secret, { ...signed(), "webhook-signature": "v2,abc v1,AAAA" }, body))).toBe(
      "SignatureMismatch"
    )
  })

  it.effect("reads a Headers object, and verifies on Effect's clock", () =>
    Effect.gen(function*() {
      const headers = new Headers(signed())
      yield* TestClock.setTime(now * 1000)
      const ok = yield* Signature.verifyEffect(secret, headers, body)
      expect(ok.id).toBe("msg_2Kx")
      yield* TestClock.adjust("6 minutes")
      const late = yield* Effect.either(Signature.verifyEffect(secret, headers, body))
      expect(Either.isLeft(late) && late.left._tag).toBe("TimestampOutOfTolerance")
    }))
})
