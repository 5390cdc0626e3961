import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "testkit",
    include: ["test/**/*.test.ts"],
    // End-to-end suites start real hosts; a single case may wait on deliveries for several seconds.
    testTimeout: 30_000
  }
})
