import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson, stringifyJson } from "../../src/json/exact.js";
import { JsonArrayWriter } from "../../src/output/json-array.js";

// --json renders each batch as it arrives; the document is the same text as rendering
// every record at the end.

async function render(batches: unknown[][], project: (r: unknown) => unknown = (r) => r) {
  let out: string | undefined;
  const writer = new JsonArrayWriter(project, async (text) => {
    out = text;
  });
  for (const batch of batches) await writer.write(batch);
  expect(out).toBeUndefined(); // nothing before the end
  await writer.end();
  return out;
}

describe("JsonArrayWriter", () => {
  it("writes what stringifyJson writes for all the records at once (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.jsonValue(), { maxLength: 4 }), { maxLength: 5 }),
        async (batches) => {
          expect(await render(batches)).toBe(`${stringifyJson(batches.flat(), 2)}\n`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps exact numbers, in batches with and without them, and projects each record", async () => {
    const a = parseJson('[{"p":1.10,"q":{"r":[1e5]}},{"p":2}]') as unknown[];
    const b = parseJson('[{"p":3,"q":null}]') as unknown[];
    expect(await render([a, [], b])).toBe(`${stringifyJson([...a, ...b], 2)}\n`);
    expect(await render([a, b], (r) => (r as { p: unknown }).p)).toBe("[\n  1.10,\n  2,\n  3\n]\n");
    expect(await render([])).toBe("[]\n");
    expect(await render([[], []])).toBe("[]\n");
  });
});
