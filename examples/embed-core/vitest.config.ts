import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "example-embed-core",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000
  }
})
