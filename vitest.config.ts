import { defineConfig } from "vitest/config";

/** Test files that mock modules (vi.mock), each run in a process of its own. */
const ISOLATED = ["test/unit/payment-readback.test.ts", "test/unit/stdout-sync.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // The end-to-end tests mostly wait on subprocesses and sockets: three files at a time keep two
    // cores busy (one worker, the default here, left them idle half the time: 3 min against 1.5).
    maxWorkers: 3,
    reporters: ["default", "./test/summary-reporter.ts"],
    projects: [
      {
        extends: true,
        // Modules shared by a worker's files, as in "commands" below (the whole suite: 130 -> 119
        // CPU-seconds, 84 -> 77 s); they pass in any order (--sequence.shuffle, three seeds).
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts", "test/package/**/*.test.ts"],
          exclude: ISOLATED,
          isolate: false,
        },
      },
      {
        extends: true,
        // Isolated: a module these mock (vi.mock) must not be what another file imports.
        test: { name: "isolated", include: ISOLATED },
      },
      {
        extends: true,
        // Runs through run() (test/commands/harness.ts) load the program once a worker, not once a
        // file: each run leaves no state behind (src/entry/run.ts), so the files share their modules
        // (test/commands: 137 s -> 57 s on the loaded machine, half the CPU).
        test: {
          name: "commands",
          include: ["test/commands/**/*.test.ts", "test/e2e/**/*.test.ts"],
          isolate: false,
        },
      },
    ],
  },
});
