/**
 * Batch verification (`osiris verify`): a registry of contract Business records, one per line,
 * and requests, one per line, in; one Search per request out, in the same order. A line that is
 * not a valid request produces its 422 body (`{"detail":[...]}`), never a crash.
 */
import { Engine, Formats, Registry, RequestValidation, Search, SearchRequest } from "@osiris/core"
import { Clock, Effect, Either, Schema, Stream } from "effect"

/** A registry line that could not be used, and why. */
export interface RejectedLine {
  readonly line: number
  readonly reason: string
}

/** Reads registry records from JSONL lines; unusable lines are reported, not fatal. */
export const readRegistry = <E, R>(lines: Stream.Stream<string, E, R>) =>
  lines.pipe(
    Stream.zipWithIndex,
    Stream.filter(([line]) => line.trim().length > 0),
    Stream.runFold(
      { records: [] as Array<Registry.RegistryBusiness>, rejected: [] as Array<RejectedLine> },
      (acc, [line, index]) => {
        let parsed: unknown
        try {
          parsed = JSON.parse(line)
        } catch (e) {
          acc.rejected.push({ line: index + 1, reason: `not JSON: ${(e as Error).message}` })
          return acc
        }
        const decoded = Registry.decodeRecord(parsed)
        if (Either.isRight(decoded)) acc.records.push(decoded.right)
        else acc.rejected.push({ line: index + 1, reason: decoded.left.replace(/\s+/g, " ") })
        return acc
      }
    )
  )

/** The user a batch run records as the searcher. */
export const BATCH_USER: Search.SearchUser = {
  id: Registry.derivedId("osiris", "batch-user") as Search.SearchUser["id"],
  first_name: "Osiris",
  last_name: "Batch",
  email: "batch@osiris.invalid"
}

const encodeSearch = Schema.encodeSync(Search.Search)

/**
 * Verifies one request line. Ids are derived from the line's position and content, so the same
 * input gives the same ids. In a batch there is no autocomplete, so a `business_token` is read as a
 * registry business id.
 */
export const verifyLine = (line: string, index: number) =>
  Effect.gen(function*() {
    const validated = RequestValidation.createSearch({ body: line })
    if (Either.isLeft(validated)) return validated.left.body
    const engine = yield* Engine.Engine
    const request = validated.right.body
    const businessId = SearchRequest.isBusinessTokenForm(request) ? request.business_token : undefined
    const verification = yield* engine.verify(businessId === undefined ? { request } : { request, businessId })
    const now = Formats.timestampFromMillis(yield* Clock.currentTimeMillis)
    const search = Engine.toSearch(verification, {
      id: Registry.derivedId("osiris-batch", String(index), line) as Search.Search["id"],
      created_at: now,
      updated_at: now,
      options: request.options ?? [],
      orderables: [],
      user: BATCH_USER,
      idempotency_key: null
    }, engine.config)
    return JSON.stringify(encodeSearch(search))
  })

/** Verifies request lines in order (blank lines are skipped). */
export const verifyLines = <E, R>(lines: Stream.Stream<string, E, R>) =>
  lines.pipe(
    Stream.filter((line) => line.trim().length > 0),
    Stream.zipWithIndex,
    Stream.mapEffect(([line, index]) => verifyLine(line, index))
  )
