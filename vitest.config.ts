import { defineConfig } from "vitest/config";

/** Test files that mock modules (vi.mock), each run in a process of its own. */
const ISOLATED = ["test/unit/payment-readback.test.ts", "test/unit/stdout-sync.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The end-to-end tests mostly wait on subprocesses, sockets and timers: four files at a time keep
    // two cores busy (one worker, the default here, left them idle half the time). Quiet machine,
    // Node 20, whole suite: 3 workers 65-71 s, 4 workers 62-64 s, 5 workers 62-64 s.
    maxWorkers: 4,
    reporters: ["default", "./test/summary-reporter.ts"],
    projects: [
      {
        extends: true,
        // One project, so that a worker's modules are loaded once for all its files: each run()
        // (test/commands/harness.ts) leaves no state behind (src/entry/run.ts), and the unit files
        // pass in any order (--sequence.shuffle, three seeds). vitest runs projects one after the
        // other; as one, the short unit files fill the cores while the long end-to-end files wait on
        // their processes and timers, and no worker is started twice.
        test: {
          name: "suite",
          include: [
            "test/unit/**/*.test.ts",
            "test/package/**/*.test.ts",
            "test/commands/**/*.test.ts",
            "test/e2e/**/*.test.ts",
          ],
          exclude: ISOLATED,
          isolate: false,
        },
      },
      {
        extends: true,
        // Isolated: a module these mock (vi.mock) must not be what another file imports.
        test: { name: "isolated", include: ISOLATED },
      },
    ],
  },
});
