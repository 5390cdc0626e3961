/**
 * Raw request (body bytes, headers, query) to typed request, or the exact response a FastAPI
 * server with pydantic v2 gives for the same model: 422 `{"detail":[...]}` with pydantic's types,
 * messages, locations and `ctx`, compact JSON with non-ASCII unescaped; 400 when the body cannot
 * be decoded at all. The models are written down in `packages/core/scripts/validation-goldens.py`,
 * which produces the golden fixtures from the real pydantic.
 */
import { Data, Either, Schema } from "effect"
import * as Py from "./internal/Pydantic.js"
import { decodeBytes, dumps, loads, type PyValue } from "./internal/PyJson.js"
import { options as allOptions, SearchState } from "./Search.js"
import { bounds, CreateSearchRequest, ListSearchesQuery } from "./SearchRequest.js"

/** Where a faulty input was: first element "body", "header" or "query"; list positions are numbers. */
export type Loc = ReadonlyArray<string | number>

/** One entry of the 422 `detail` list, in pydantic's key order: type, loc, msg, input, ctx. */
export interface ErrorDetail {
  readonly type: string
  readonly loc: Loc
  readonly msg: string
  readonly input: unknown
  readonly ctx?: Readonly<Record<string, unknown>>
}

/** A request refused before it reached the service, with the exact response body to send. */
export class RequestRejected extends Data.TaggedError("RequestRejected")<{
  readonly status: 400 | 422
  readonly detail: ReadonlyArray<ErrorDetail> | string
  /** The response body, byte-for-byte (UTF-8 of this string). */
  readonly body: string
}> {}

/** A raw HTTP request as the host received it. Header names in any case. */
export interface RawRequest {
  readonly body?: Uint8Array | string | undefined
  readonly headers?: Readonly<Record<string, string | ReadonlyArray<string> | undefined>> | undefined
  readonly query?: Iterable<readonly [string, string]> | undefined
}

/** The message FastAPI answers (status 400) for a body that is not decodable text. */
export const UNREADABLE_BODY = "There was an error parsing the body"

/** Serialises a 422 detail list as FastAPI does. */
export const renderDetail = (detail: ReadonlyArray<ErrorDetail>): string =>
  `{"detail":[${
    detail.map((d) =>
      `{"type":${dumps(d.type)},"loc":${dumps(d.loc)},"msg":${dumps(d.msg)},"input":${dumps(d.input)}${
        d.ctx !== undefined && Object.keys(d.ctx).length > 0 ? `,"ctx":${dumps(d.ctx)}` : ""
      }}`
    ).join(",")
  }]}`

/** A 422 rejection from detail entries (also used by the host for idempotency and token errors). */
export const unprocessable = (detail: ReadonlyArray<ErrorDetail>): RequestRejected =>
  new RequestRejected({ status: 422, detail, body: renderDetail(detail) })

const unreadable = (): RequestRejected =>
  new RequestRejected({ status: 400, detail: UNREADABLE_BODY, body: `{"detail":${dumps(UNREADABLE_BODY)}}` })

const prefixed = (prefix: string, items: ReadonlyArray<Py.ErrorItem>): Array<ErrorDetail> =>
  items.map((e) => ({ ...e, loc: [prefix, ...e.loc] }))

const headerValue = (raw: RawRequest, name: string): string | undefined => {
  if (raw.headers === undefined) return undefined
  for (const [key, value] of Object.entries(raw.headers)) {
    if (key.toLowerCase() === name) return typeof value === "string" ? value : value?.[0]
  }
  return undefined
}

type Body = { readonly _tag: "Absent" } | { readonly _tag: "Value"; readonly value: PyValue }

/** Reads the body as FastAPI does: empty -> absent, else `json.loads` of the bytes. */
const readBody = (raw: RawRequest): Either.Either<Body, RequestRejected> => {
  const bytes = typeof raw.body === "string" ? new TextEncoder().encode(raw.body) : raw.body
  if (bytes === undefined || bytes.length === 0) return Either.right({ _tag: "Absent" })
  const text = decodeBytes(bytes)
  if (text === undefined) return Either.left(unreadable())
  const parsed = loads(text)
  switch (parsed._tag) {
    case "Ok":
      return Either.right({ _tag: "Value", value: parsed.value })
    case "Unreadable":
      return Either.left(unreadable())
    case "DecodeError":
      return Either.left(unprocessable([{
        type: "json_invalid",
        loc: ["body", parsed.pos],
        msg: "JSON decode error",
        input: {},
        ctx: { error: parsed.msg }
      }]))
  }
}

const isMapping = (v: PyValue): v is ReadonlyMap<string, PyValue> => v instanceof Map

const names = Py.list(Py.str(bounds.listItem), { max: bounds.listItems })

/** Message of the TIN check (DECISIONS section 5). */
export const TIN_MESSAGE = "TIN must be 9 digits; '-' and spaces are ignored"

/** Message of the two-forms rule (DECISIONS section 5). */
export const FORM_MESSAGE = "Provide either name and address, or business_token alone"

const createSearchModel: Py.Model = {
  extra: "forbid",
  fields: [
    ["name", Py.optional(Py.str(bounds.name))],
    ["address", Py.optional(Py.str(bounds.address))],
    ["officer_names", Py.optional(names)],
    ["website", Py.optional(Py.str(bounds.website))],
    ["phone_number", Py.optional(Py.str(bounds.phone_number))],
    ["email", Py.optional(Py.str(bounds.email))],
    ["alternative_names", Py.optional(names)],
    [
      "tin",
      Py.optional(
        Py.after(Py.str(bounds.tin), (v: string) => /^\d{9}$/.test(v.replace(/[- ]/g, "")) ? undefined : TIN_MESSAGE)
      )
    ],
    ["options", Py.optional(Py.list(Py.enumOf(allOptions), { max: bounds.options }))],
    ["reference_id", Py.optional(Py.str(bounds.reference_id))],
    ["business_token", Py.optional(Py.str(bounds.business_token))]
  ]
}

const fieldRank = new Map(createSearchModel.fields.map(([name], i) => [name, i]))

/** The two-forms rule: errors that come after the field errors, merged in declaration order. */
const formErrors = (input: ReadonlyMap<string, PyValue>, fieldErrors: ReadonlyArray<Py.ErrorItem>) => {
  const has = (k: string) => input.has(k) && input.get(k) !== null
  const out: Array<Py.ErrorItem> = []
  const valueError = (): Py.ErrorItem => ({
    type: "value_error",
    loc: [],
    msg: `Value error, ${FORM_MESSAGE}`,
    input,
    ctx: Py.EXCEPTION_CTX
  })
  if (has("business_token")) {
    if (has("name") || has("address")) out.push(valueError())
  } else if (!has("name") && !has("address")) {
    out.push(valueError())
  } else {
    for (const k of ["name", "address"]) {
      if (!has(k) && !fieldErrors.some((e) => e.loc[0] === k)) {
        out.push({ type: "missing", loc: [k], msg: "Field required", input })
      }
    }
  }
  const rank = (e: Py.ErrorItem) =>
    e.loc.length === 0 ? fieldRank.size + 1 : fieldRank.get(String(e.loc[0])) ?? fieldRank.size
  return [...fieldErrors, ...out].sort((a, b) => rank(a) - rank(b))
}

const idempotencyKeyValidator = Py.str({
  ...bounds.idempotencyKey,
  pattern: { python: "^[\\x20-\\x7E]+$", regex: /^[\x20-\x7E]+$/ }
})

/** A validated `POST /searches`: the typed body and the Idempotency-Key header, if sent. */
export interface CreateSearchInput {
  readonly body: CreateSearchRequest
  readonly idempotencyKey: string | undefined
}

const decodeCreate = Schema.decodeUnknownSync(CreateSearchRequest)
const decodeList = Schema.decodeUnknownSync(ListSearchesQuery)

/** Validates `POST /searches`: header errors first, then body errors, all of them. */
export const createSearch = (raw: RawRequest): Either.Either<CreateSearchInput, RequestRejected> =>
  Either.flatMap(readBody(raw), (body) => {
    const detail: Array<ErrorDetail> = []
    const headerErrors: Array<Py.ErrorItem> = []
    const keyHeader = headerValue(raw, "idempotency-key")
    let idempotencyKey: string | undefined
    if (keyHeader !== undefined) {
      const r = idempotencyKeyValidator.run(keyHeader, ["idempotency-key"], headerErrors)
      if (r.ok) idempotencyKey = keyHeader
    }
    detail.push(...prefixed("header", headerErrors))
    let value: Record<string, unknown> | undefined
    if (body._tag === "Absent" || body.value === null) {
      detail.push({ type: "missing", loc: ["body"], msg: "Field required", input: null })
    } else if (!isMapping(body.value)) {
      detail.push({
        type: "model_attributes_type",
        loc: ["body"],
        msg: "Input should be a valid dictionary or object to extract fields from",
        input: body.value
      })
    } else {
      const fieldErrors: Array<Py.ErrorItem> = []
      value = Py.validateModel(createSearchModel, body.value, fieldErrors)
      detail.push(...prefixed("body", formErrors(body.value, fieldErrors)))
    }
    if (detail.length > 0 || value === undefined) return Either.left(unprocessable(detail))
    return Either.right({ body: decodeCreate(value), idempotencyKey })
  })

const listSearchesModel: Py.Model = {
  extra: "ignore",
  fields: [
    ["limit", Py.withDefault(Py.int({ ge: 1, le: 100 }), 20)],
    ["cursor", Py.optional(Py.str({ min: 1, max: 512 }))],
    ["state", Py.optional(Py.enumOf(SearchState.literals))],
    ["reference_id", Py.optional(Py.str(bounds.reference_id))]
  ]
}

/** Validates the query of `GET /searches` (for a repeated parameter the last value wins, as in Starlette). */
export const listSearches = (raw: RawRequest): Either.Either<ListSearchesQuery, RequestRejected> => {
  const query = new Map<string, PyValue>()
  for (const [k, v] of raw.query ?? []) query.set(k, v)
  const errors: Array<Py.ErrorItem> = []
  const value = Py.validateModel(listSearchesModel, query, errors)
  if (errors.length > 0) return Either.left(unprocessable(prefixed("query", errors)))
  return Either.right(decodeList(value))
}
