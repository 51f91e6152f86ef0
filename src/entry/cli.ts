import { run } from "./run.js";

// The entry point: one run of the program (src/entry/run.ts) with the process's streams, signals
// and exit. The only process.exit is here.

process.exitCode = await run(process.argv.slice(2), { signals: process, exit: (code) => process.exit(code) });
