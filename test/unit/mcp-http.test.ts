import { describe, expect, it } from "vitest";
import { allowedHostNames, parseListen } from "../../src/commands/mcp/http/address.js";
import { TokenRate } from "../../src/commands/mcp/http/rate.js";

// The pure parts of `mcp --http`: where it listens and which Host names it answers to, and each
// token's rate.

describe("--http [HOST:]PORT", () => {
  it("reads a port alone as this machine's, a host and port, and an IPv6 address in brackets", () => {
    expect(parseListen("8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(parseListen("0")).toEqual({ host: "127.0.0.1", port: 0 });
    expect(parseListen("0.0.0.0:9")).toEqual({ host: "0.0.0.0", port: 9 });
    expect(parseListen("localhost:80")).toEqual({ host: "localhost", port: 80 });
    expect(parseListen("[::1]:8080")).toEqual({ host: "::1", port: 8080 });
  });

  it("refuses anything else, naming the form it takes", () => {
    for (const bad of ["", "80808", "65536", ":80", "host:", "[nope]:80", "::1:80", "a b:80", "http://x:80"])
      expect(() => parseListen(bad), bad).toThrow(/^--http: expected \[HOST:\]PORT/);
  });
});

describe("the Host names a request may give", () => {
  it("on a loopback address: the names of this machine, and those allowed", () => {
    const names = allowedHostNames({ host: "127.0.0.1", port: 1 }, "127.0.0.1", ["MCP.example.com"]);
    expect(names.sort()).toEqual(["127.0.0.1", "[::1]", "localhost", "mcp.example.com"]);
  });

  it("on another address: that address and those allowed, not this machine's names", () => {
    expect(allowedHostNames({ host: "10.0.0.5", port: 1 }, "10.0.0.5", []).sort()).toEqual(["10.0.0.5"]);
    expect(allowedHostNames({ host: "::", port: 1 }, "::", ["[2001:db8::1]"]).sort()).toEqual([
      "127.0.0.1",
      "[2001:db8::1]",
      "[::1]",
      "localhost",
    ]);
  });
});

describe("each token's rate", () => {
  it("lets a minute's worth through at once, then one as each comes due, each token apart", () => {
    const clock = { now: 0 };
    const rate = new TokenRate(60, () => clock.now);
    for (let i = 0; i < 60; i++) expect(rate.take("a")).toBeUndefined();
    expect(rate.take("a")).toBe(1);
    expect(rate.take("b")).toBeUndefined();
    clock.now += 1_000;
    expect(rate.take("a")).toBeUndefined();
    expect(rate.take("a")).toBe(1);
    clock.now += 120_000;
    for (let i = 0; i < 60; i++) expect(rate.take("a")).toBeUndefined();
    expect(rate.take("a")).toBe(1);
  });

  it("says how many seconds until the next request at a slow rate", () => {
    const clock = { now: 0 };
    const rate = new TokenRate(2, () => clock.now);
    rate.take("a");
    rate.take("a");
    expect(rate.take("a")).toBe(30);
  });
});
