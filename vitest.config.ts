import { defineConfig } from "vitest/config"

// One run over every package's suite (vitest "projects"); each package keeps its own config.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "examples/*/vitest.config.ts"],
    reporters: ["default"]
  }
})
