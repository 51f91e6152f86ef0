import { afterEach, describe, expect, it, vi } from "vitest";

// writeOutSync (the shim's --version and --help) writes with write(2) on fd 1. A write(2) may take
// part of the text, and a non-blocking pipe that is full answers EAGAIN: nothing may be lost.

const writes: Buffer[] = [];
let script: Array<number | string> = [];

vi.mock("node:fs", async (real) => ({
  ...(await real<typeof import("node:fs")>()),
  writeSync: (fd: number, data: Buffer) => {
    expect(fd).toBe(1);
    const step = script.shift();
    if (typeof step === "string") throw Object.assign(new Error(step), { code: step });
    const n = Math.min(step ?? data.length, data.length);
    writes.push(Buffer.from(data.subarray(0, n)));
    return n;
  },
}));

const { writeOutSync } = await import("../../src/files/stdout.js");

afterEach(() => {
  writes.length = 0;
  vi.restoreAllMocks();
});

describe("writeOutSync", () => {
  it("writes every byte when write(2) takes a part at a time", () => {
    script = [3, 1, 5];
    writeOutSync("tokenintel 0.1.0 — ünïcode\n");
    expect(Buffer.concat(writes).toString()).toBe("tokenintel 0.1.0 — ünïcode\n");
    expect(writes.length).toBeGreaterThan(3);
  });

  it("hands what is left to process.stdout when the pipe is non-blocking and full (EAGAIN)", () => {
    script = [4, "EAGAIN"];
    const later = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    writeOutSync("0.1.0 and the rest\n");
    expect(Buffer.concat(writes).toString()).toBe("0.1.");
    expect(later).toHaveBeenCalledTimes(1);
    expect(Buffer.from(later.mock.calls[0]![0] as Uint8Array).toString()).toBe("0 and the rest\n");
  });
});
