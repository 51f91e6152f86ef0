import { describe, expect, it } from "vitest";
import { apiTarget, parseField } from "../../src/commands/api/run.js";

const apiPath = (input: string, base: URL) => apiTarget(input, base).path;

describe("parseField", () => {
  it("keeps -f values as strings", async () => {
    expect(await parseField("-f", "a=1", false)).toEqual(["a", "1"]);
    expect(await parseField("-f", "q=x=y", false)).toEqual(["q", "x=y"]);
    expect(await parseField("-f", "empty=", false)).toEqual(["empty", ""]);
  });
  it("types -F values", async () => {
    const read = async (p: string) => `contents of ${p}`;
    expect(await parseField("-F", "n=42", true, read)).toEqual(["n", 42]);
    expect(await parseField("-F", "n=-1.5e3", true, read)).toEqual(["n", -1500]);
    expect(await parseField("-F", "b=true", true, read)).toEqual(["b", true]);
    expect(await parseField("-F", "b=false", true, read)).toEqual(["b", false]);
    expect(await parseField("-F", "z=null", true, read)).toEqual(["z", null]);
    expect(await parseField("-F", "s=007x", true, read)).toEqual(["s", "007x"]);
    expect(await parseField("-F", "s=01", true, read)).toEqual(["s", "01"]);
    expect(await parseField("-F", "f=@a.txt", true, read)).toEqual(["f", "contents of a.txt"]);
  });
  it("rejects malformed fields", async () => {
    await expect(parseField("-f", "=v", false)).rejects.toThrow(/key=value/);
    await expect(parseField("-f", "novalue", false)).rejects.toThrow(/key=value/);
  });
});

describe("apiPath", () => {
  const base = new URL("https://api.dapplooker.com");
  it("normalises paths and accepts same-origin URLs", () => {
    expect(apiPath("v1/trending", base)).toBe("/v1/trending");
    expect(apiPath("//v1/x", base)).toBe("/v1/x");
    expect(apiPath("https://api.dapplooker.com/v1/x", base)).toBe("/v1/x");
  });
  it("refuses other origins and query strings", () => {
    expect(() => apiPath("http://api.dapplooker.com/v1/x", base)).toThrow(/origin/);
    expect(() => apiPath("https://evil.com/v1/x", base)).toThrow(/origin/);
    expect(apiTarget("/v1/x?a=b&c=%2C", base)).toEqual({
      path: "/v1/x",
      query: [
        ["a", "b"],
        ["c", ","],
      ],
    });
    expect(() => apiTarget("/v1/x?api_key=k", base)).toThrow(/never in the path/);
  });
});
