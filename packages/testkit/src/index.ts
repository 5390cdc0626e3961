/** Placeholder until the package lands: see the README package map. */
export {}
