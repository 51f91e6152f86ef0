import { describe, expect, it } from "vitest";
import { hashToken, matchToken, mintToken, type StoredToken } from "../../src/commands/mcp/tokens/store.js";

// The bearer tokens of `mcp --http`: made from 32 random bytes, found again by their hash alone.

describe("tokens", () => {
  it("are 32 random bytes in base64url after ti_, each new", () => {
    const tokens = Array.from({ length: 50 }, mintToken);
    for (const token of tokens) {
      expect(token).toMatch(/^ti_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token.slice(3), "base64url")).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(50);
  });

  it("are matched by their hash alone, against every entry", () => {
    const [a, b] = [mintToken(), mintToken()];
    const entry = (name: string, token: string): StoredToken => ({
      name,
      hash: hashToken(token),
      created: "2026-01-01T00:00:00.000Z",
    });
    const stored = [entry("a", a), entry("b", b)];
    expect(matchToken(stored, a)?.name).toBe("a");
    expect(matchToken(stored, b)?.name).toBe("b");
    for (const wrong of ["", a.slice(0, -1), `${a}x`, a.toUpperCase(), hashToken(a)])
      expect(matchToken(stored, wrong)).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain(a.slice(3));
  });
});
