import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "example-vitest-sandbox",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000
  }
})
