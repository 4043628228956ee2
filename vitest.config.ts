import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // kuzu's native handles segfault at exit under worker threads: every test file gets a process.
    pool: "forks",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default"],
  },
});
