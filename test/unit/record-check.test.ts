import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readPage } from "../../src/api/pager.js";
import { passesClientCheck } from "../../src/api/record-check.js";
import { describeIssue, type RecordKind, recordSchemaFor } from "../../src/api/schemas.js";
import { LosslessNumber } from "../../src/json/exact.js";

// The hand-written client check stands in for the zod schema on the hot loop: it may
// only ever accept what the schema accepts, and a page it refuses fails with the schema's words.

const KINDS: RecordKind[] = ["market", "directory", "agents", "ta", "any"];

/** The message readPage gives when the schema refuses record `index` (undefined: the schema accepts it). */
function schemaMessage(kind: RecordKind, record: unknown, index = 0): string | undefined {
  const result = recordSchemaFor(kind).safeParse(record);
  return result.success
    ? undefined
    : `HTTP 200: unexpected response (${describeIssue(result.error, `data[${index}]`)})`;
}

const notObjects: unknown[] = ["ABC", 1, true, null, [], [{ id: "a" }], new LosslessNumber("1.10")];

describe("the client record check", () => {
  it("refuses records that are not objects, as the schema does, in the schema's words", () => {
    for (const kind of ["market", "directory", "agents", "ta"] as const) {
      for (const record of ["ABC", 1, true, null, [], [{ id: "a" }]]) {
        expect(passesClientCheck(record, kind), `${kind} ${JSON.stringify(record)}`).toBe(false);
        const message = schemaMessage(kind, record, 1);
        expect(message).toBeDefined();
        expect(() => readPage({ data: [{ id: "ok" }, record] }, kind, 1)).toThrow(message!);
      }
    }
  });

  it("refuses sections that are not objects (or null), in the schema's words", () => {
    for (const [kind, section] of [
      ["market", "token_metrics"],
      ["market", "x_social_metrics"],
      ["agents", "agent_info"],
      ["ta", "technical_indicators"],
    ] as const) {
      for (const value of ["1.5", 2, false, [], [{}]]) {
        const record = { id: "a", [section]: value };
        expect(passesClientCheck(record, kind), `${kind}.${section} ${JSON.stringify(value)}`).toBe(false);
        const message = schemaMessage(kind, record);
        expect(message).toContain(`data[0].${section}`);
        expect(() => readPage({ data: [record] }, kind, 1)).toThrow(message!);
      }
      for (const value of [null, undefined, {}, { x: [1] }]) {
        expect(passesClientCheck({ id: "a", [section]: value }, kind)).toBe(true);
      }
    }
  });

  it("lets anything through for an endpoint without a shape, and leaves leaves alone", () => {
    for (const record of notObjects) expect(passesClientCheck(record, "any")).toBe(true);
    expect(passesClientCheck({ id: 5, symbol: ["x"], token_metrics: { usd_price: [] } }, "market")).toBe(
      true,
    );
    expect(passesClientCheck({ id: "a", name: { x: 1 } }, "directory")).toBe(true);
  });

  it("reads own __proto__ keys as data and never passes a non-object through them", () => {
    const record = JSON.parse('{"__proto__":"x","id":"a","token_info":{"__proto__":1}}');
    expect(passesClientCheck(record, "market")).toBe(true);
    expect(schemaMessage("market", record)).toBeUndefined();
  });

  it("never accepts what the schema refuses (property)", () => {
    const section = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
      fc.jsonValue(),
      fc.constant(new LosslessNumber("1.10")),
    );
    const keys = [
      "id",
      "token_info",
      "agent_info",
      "token_metrics",
      "technical_indicators",
      "x_social_metrics",
      "symbol",
    ];
    const record = fc.oneof(
      fc.jsonValue(),
      fc.constant(new LosslessNumber("1.10")),
      fc.record(Object.fromEntries(keys.map((k) => [k, section])), { requiredKeys: [] }),
    );
    let checked = 0; // the records that passed the client's check: the ones the property is about
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), record, (kind, r) => {
        if (!passesClientCheck(r, kind)) return;
        checked++;
        expect(schemaMessage(kind, r)).toBeUndefined();
      }),
      { numRuns: 3000 },
    );
    expect(checked).toBeGreaterThan(10);
  });
});
