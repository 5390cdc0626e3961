/**
 * The slice of pydantic v2 (lax Python mode, as FastAPI runs it) that the request models use:
 * strings with length bounds and patterns, lists with a maximum length, string enums, integers
 * parsed from query strings, nullable optional fields, an "after" value check, and models with
 * `extra="forbid"`. Types, messages and `ctx` are pydantic's; lengths count code points.
 */
import { codePointLength, PyFloat, PyInt, type PyValue } from "./PyJson.js"

/** One entry of a pydantic `errors(include_url=False)` list, before the FastAPI location prefix. */
export interface ErrorItem {
  readonly type: string
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
  readonly input: unknown
  readonly ctx?: Readonly<Record<string, unknown>>
}

/** The `ctx.error` of a `value_error`: FastAPI's `jsonable_encoder` turns the exception into `{}`. */
export const EXCEPTION_CTX: Readonly<Record<string, unknown>> = Object.freeze({ error: Object.freeze({}) })

type Loc = ReadonlyArray<string | number>
type Result = { readonly ok: true; readonly value: unknown } | { readonly ok: false }

/** A field validator: pushes its errors and returns the converted value when there are none. */
export interface Validator {
  readonly run: (input: PyValue, loc: Loc, errors: Array<ErrorItem>) => Result
}

const ok = (value: unknown): Result => ({ ok: true, value })
const bad: Result = { ok: false }
const plural = (n: number) => (n === 1 ? "" : "s")

/** `str` with `StringConstraints(min_length, max_length, pattern)`; the pattern is shown as written in Python. */
export const str = (options: {
  readonly min?: number
  readonly max?: number
  readonly pattern?: { readonly python: string; readonly regex: RegExp }
} = {}): Validator => ({
  run: (input, loc, errors) => {
    if (typeof input !== "string") {
      errors.push({ type: "string_type", loc, msg: "Input should be a valid string", input })
      return bad
    }
    const n = codePointLength(input)
    if (options.min !== undefined && n < options.min) {
      errors.push({
        type: "string_too_short",
        loc,
        msg: `String should have at least ${options.min} character${plural(options.min)}`,
        input,
        ctx: { min_length: options.min }
      })
      return bad
    }
    if (options.max !== undefined && n > options.max) {
      errors.push({
        type: "string_too_long",
        loc,
        msg: `String should have at most ${options.max} character${plural(options.max)}`,
        input,
        ctx: { max_length: options.max }
      })
      return bad
    }
    if (options.pattern !== undefined && !options.pattern.regex.test(input)) {
      errors.push({
        type: "string_pattern_mismatch",
        loc,
        msg: `String should match pattern '${options.pattern.python}'`,
        input,
        ctx: { pattern: options.pattern.python }
      })
      return bad
    }
    return ok(input)
  }
})

/** A `str` Enum: any other input (string or not) is an `enum` error listing the members. */
export const enumOf = <const A extends ReadonlyArray<string>>(members: A): Validator => {
  const quoted = members.map((m) => `'${m}'`)
  const expected = quoted.length === 1
    ? quoted[0]!
    : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`
  return {
    run: (input, loc, errors) => {
      if (typeof input === "string" && members.includes(input)) return ok(input)
      errors.push({ type: "enum", loc, msg: `Input should be ${expected}`, input, ctx: { expected } })
      return bad
    }
  }
}

/** `list[item]` with `Field(max_length=n)`; pydantic refuses an over-long input before its items. */
export const list = (item: Validator, options: { readonly max?: number } = {}): Validator => ({
  run: (input, loc, errors) => {
    if (!Array.isArray(input)) {
      errors.push({ type: "list_type", loc, msg: "Input should be a valid list", input })
      return bad
    }
    const items = input as ReadonlyArray<PyValue>
    if (options.max !== undefined && items.length > options.max) {
      errors.push({
        type: "too_long",
        loc,
        msg: `List should have at most ${options.max} item${plural(options.max)} after validation, not ${items.length}`,
        input,
        ctx: { field_type: "List", max_length: options.max, actual_length: items.length }
      })
      return bad
    }
    const out: Array<unknown> = []
    let valid = true
    items.forEach((value, i) => {
      const r = item.run(value, [...loc, i], errors)
      if (r.ok) out.push(r.value)
      else valid = false
    })
    return valid ? ok(out) : bad
  }
})

/** Python's lax `int` from a query string: surrounding whitespace, a sign, `_` between digits, `.0`. */
const INT_TEXT = /^[ \t\n\r\f\v]*([+-]?)(\d(?:_?\d)*)(?:\.0*)?[ \t\n\r\f\v]*$/

/** `int` with `Field(ge, le)`, as validated from a query parameter (always a string). */
export const int = (options: { readonly ge?: number; readonly le?: number } = {}): Validator => ({
  run: (input, loc, errors) => {
    let value: number | undefined
    if (typeof input === "string") {
      const m = INT_TEXT.exec(input)
      if (m) value = Number(`${m[1]}${m[2]!.replaceAll("_", "")}`)
    } else if (input instanceof PyInt) {
      value = Number(input.text)
    } else if (input instanceof PyFloat && Number.isInteger(input.value)) {
      value = input.value
    }
    if (value === undefined) {
      errors.push({
        type: "int_parsing",
        loc,
        msg: "Input should be a valid integer, unable to parse string as an integer",
        input
      })
      return bad
    }
    if (options.ge !== undefined && value < options.ge) {
      errors.push({
        type: "greater_than_equal",
        loc,
        msg: `Input should be greater than or equal to ${options.ge}`,
        input,
        ctx: { ge: options.ge }
      })
      return bad
    }
    if (options.le !== undefined && value > options.le) {
      errors.push({
        type: "less_than_equal",
        loc,
        msg: `Input should be less than or equal to ${options.le}`,
        input,
        ctx: { le: options.le }
      })
      return bad
    }
    return ok(value === 0 ? 0 : value)
  }
})

/** A `field_validator` run after the inner one: a message means `ValueError(message)`. */
export const after = (inner: Validator, check: (value: any) => string | undefined): Validator => ({
  run: (input, loc, errors) => {
    const r = inner.run(input, loc, errors)
    if (!r.ok) return r
    const message = check(r.value)
    if (message === undefined) return r
    errors.push({ type: "value_error", loc, msg: `Value error, ${message}`, input, ctx: EXCEPTION_CTX })
    return bad
  }
})

/** A model field: absent means the default; `null` is accepted for optional (nullable) fields. */
export interface Field {
  readonly validator: Validator
  readonly optional: boolean
  readonly default?: unknown
}

/** An optional field of type `Optional[T] = default`. */
export const optional = (validator: Validator, defaultValue: unknown = undefined): Field => ({
  validator,
  optional: true,
  default: defaultValue
})

/** A field with a default and no `None` allowed (`limit: int = 20`). */
export const withDefault = (validator: Validator, defaultValue: unknown): Field => ({
  validator,
  optional: false,
  default: defaultValue
})

/** A `BaseModel`: fields in declaration order, then extra keys (forbidden or ignored). */
export interface Model {
  readonly fields: ReadonlyArray<readonly [string, Field]>
  readonly extra: "forbid" | "ignore"
}

/** Validates a mapping against a model; errors in pydantic's order (fields as declared, then extras). */
export const validateModel = (
  model: Model,
  input: ReadonlyMap<string, PyValue>,
  errors: Array<ErrorItem>
): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [name, field] of model.fields) {
    if (!input.has(name)) {
      if (field.default !== undefined) out[name] = field.default
      continue
    }
    const value = input.get(name)!
    if (value === null && field.optional) continue
    const r = field.validator.run(value, [name], errors)
    if (r.ok) out[name] = r.value
  }
  if (model.extra === "forbid") {
    const declared = new Set(model.fields.map(([name]) => name))
    for (const [key, value] of input) {
      if (!declared.has(key)) {
        errors.push({ type: "extra_forbidden", loc: [key], msg: "Extra inputs are not permitted", input: value })
      }
    }
  }
  return out
}
