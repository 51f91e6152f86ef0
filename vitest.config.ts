import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The end-to-end tests mostly wait on subprocesses and sockets: three files at a time keep two
    // cores busy (one worker, the default here, left them idle half the time: 3 min against 1.5).
    maxWorkers: 3,
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
