#!/usr/bin/env node
// Runs the reference host from its TypeScript sources through tsx (no build step).
import { register } from "tsx/esm/api"

register()
await import("../src/main.ts")
