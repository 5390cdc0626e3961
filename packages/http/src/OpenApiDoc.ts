/**
 * What `HttpApi` generates, completed so `/openapi.json` describes what the server really does:
 * summaries, one tag per functional area (with descriptions), servers, licence, the `{"detail"}`
 * error responses every endpoint can give (401, 403, 404, 409, 413, 415, 429, 500, 503, and 400
 * for an unreadable body), and the headers of `POST /searches` (request: Prefer, Idempotency-Key;
 * response: Location, X-Resource-Id, Vary, Preference-Applied, Retry-After, Idempotent-Replayed).
 * Checked with `@redocly/cli lint` in the test suite.
 */

const SUMMARIES: Record<string, string> = {
  "searches.create": "Create a search (synchronous or asynchronous)",
  "searches.get": "Read a search",
  "searches.status": "Read a search's state",
  "searches.list": "List searches",
  "searches.cancel": "Cancel a pending or running search",
  "businesses.get": "Read a business of the registry",
  "businesses.status": "Read a business's standing",
  "orderables.websiteAnalysis": "Read a website analysis",
  "orderables.naicsPrediction": "Read a NAICS prediction",
  "orderables.pepScreening": "Read a PEP screening",
  "orderables.enhanced": "Read an enhanced search",
  "autocomplete.businesses": "Suggest businesses and business tokens",
  "apiKeys.create": "Create an API key (shown once)",
  "apiKeys.list": "List API keys",
  "apiKeys.revoke": "Revoke an API key",
  "webhooks.create": "Register a webhook endpoint (secret shown once)",
  "webhooks.list": "List webhook endpoints",
  "webhooks.delete": "Delete a webhook endpoint",
  "webhooks.rotateSecret": "Rotate an endpoint's signing secret",
  "webhooks.deliveries": "List an endpoint's deliveries and attempts",
  "webhooks.redeliver": "Deliver an event again",
  "usage.daily": "Billable usage per day",
  "health.live": "Liveness",
  "health.ready": "Readiness (storage reachable)"
}

const TAGS = [
  {
    name: "Business Verification",
    description: "Searches, the businesses they match, their ordered extras, and autocomplete."
  },
  { name: "Platform", description: "API keys, webhooks, usage and health." }
]

const detail = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["detail"],
        properties: { detail: { type: "string" } },
        additionalProperties: false
      }
    }
  }
})

const header = (description: string) => ({ description, schema: { type: "string" } })

const CREATE_HEADERS = {
  Location: header("{base_url}/searches/<id>"),
  "X-Resource-Id": header("The search's id"),
  Vary: header("Prefer, Accept"),
  "Preference-Applied": header("respond-async, or wait=N when a wait was asked for"),
  "Idempotent-Replayed": header("true when this is the answer to an earlier request with the same Idempotency-Key")
}

const query = (name: string, description: string, required = false) => ({
  name,
  in: "query",
  required,
  description,
  schema: { type: "string" }
})

/**
 * Query parameters the handlers read themselves (declared here, not as `HttpApi` URL params, so a
 * repeated or odd parameter gets the documented 422 instead of the framework's own 400).
 */
const QUERIES: Record<string, ReadonlyArray<ReturnType<typeof query>>> = {
  "autocomplete.businesses": [
    query("q", "What was typed, 1..200 characters", true),
    query("state", "A two-letter state code"),
    query("limit", "1..20 suggestions (default 5)")
  ],
  "usage.daily": [
    query("from", "First day, YYYY-MM-DD (default 29 days before to)"),
    query("to", "Last day, YYYY-MM-DD (default today, UTC)")
  ],
  "searches.list": [
    query("limit", "1..100 searches per page (default 20)"),
    query("cursor", "next_cursor of the previous page"),
    query("state", "Only searches in this state"),
    query("reference_id", "Only searches with this reference_id")
  ]
}

/** Completes the generated document (used as the API's `OpenApi.Transform`). */
export const complete = (spec: Record<string, any>): Record<string, any> => {
  spec.info = {
    ...spec.info,
    version: "1.0.0",
    description: "Osiris business verification (KYB): identify a business, get back how closely it matches.",
    license: { name: "Apache-2.0", identifier: "Apache-2.0" }
  }
  spec.servers = [{ url: "/", description: "This host" }]
  spec.tags = TAGS
  for (const [path, item] of Object.entries(spec.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== "object" || op === null || !("responses" in op)) continue
      op.summary = SUMMARIES[op.operationId] ?? op.operationId
      const queries = QUERIES[op.operationId]
      if (queries !== undefined) op.parameters = [...(op.parameters ?? []), ...queries]
      const responses = op.responses as Record<string, unknown>
      const secured = Array.isArray(op.security) ? op.security.length > 0 : spec.security !== undefined
      if (path.startsWith("/health")) {
        op.security = []
        responses["503"] = detail("Storage is unavailable")
        continue
      }
      if ("400" in responses) responses["400"] = detail("The body could not be read")
      if (secured) {
        responses["401"] = detail("Missing, malformed, unknown or revoked API key")
        responses["403"] = detail("The key lacks the scope, or the resource is in the other environment")
        responses["429"] = {
          ...detail("Over the key's rate limit"),
          headers: { "Retry-After": header("Seconds to wait") }
        }
      }
      if (path.includes("{id}")) responses["404"] = detail("Not found (or another application's)")
      if (method === "post" && "requestBody" in op) {
        responses["413"] = detail("The body is larger than 1 MiB")
        responses["415"] = detail("The body is not JSON")
      }
      if (op.operationId === "searches.cancel") responses["409"] = detail("The search has already finished")
      responses["500"] = detail("Internal server error")
      responses["503"] = detail("Storage is unavailable")
      if (op.operationId === "searches.create") {
        op.parameters = [
          ...(op.parameters ?? []),
          {
            name: "Prefer",
            in: "header",
            required: false,
            description: "respond-async, or wait=N (1..90 seconds); unknown tokens are ignored",
            schema: { type: "string" }
          },
          {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            description: "Up to 255 printable ASCII characters",
            schema: { type: "string", maxLength: 255 }
          }
        ]
        for (const status of ["201", "202"]) {
          const r = responses[status] as Record<string, unknown> | undefined
          if (r !== undefined) {
            r.headers = {
              ...CREATE_HEADERS,
              ...(status === "202" ? { "Retry-After": header("1: when to look again") } : {})
            }
          }
        }
      }
    }
  }
  // Schemas nothing refers to any more (the 401 class the middleware declares is replaced above).
  const schemas = (spec.components?.schemas ?? {}) as Record<string, unknown>
  for (const name of Object.keys(schemas)) {
    const { [name]: _, ...rest } = schemas
    if (!JSON.stringify({ paths: spec.paths, rest }).includes(`"#/components/schemas/${name}"`)) delete schemas[name]
  }
  return spec
}
