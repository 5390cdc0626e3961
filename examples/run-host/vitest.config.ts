import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "example-run-host",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000
  }
})
