/** Osiris core: the wire contract, request validation and the verification engine. */
export * as Address from "./Address.js"
export * as Business from "./Business.js"
export * as Formats from "./Formats.js"
export * as RequestValidation from "./RequestValidation.js"
export * as Search from "./Search.js"
export * as SearchRequest from "./SearchRequest.js"
export * as SearchState from "./SearchState.js"
