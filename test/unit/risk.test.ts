import { describe, expect, it } from "vitest";
import { LosslessNumber } from "../../src/json/exact.js";
import { riskFlags } from "../../src/output/risk.js";
import {
  AGENT_SECTIONS,
  assessRisk,
  liquidityShare,
  type RiskRule,
  reaches,
  THRESHOLDS,
  thresholdRows,
} from "../../src/risk/rules.js";

// Each rule at, just below and just past each of its thresholds.

const dev = (fields: Record<string, unknown>) => ({ dev_wallet_insights: fields });
const holders = (fields: Record<string, unknown>) => ({ token_holder_insights: fields });
const metrics = (liquidity: unknown, mcap: unknown) => ({
  token_metrics: { total_liquidity: liquidity, mcap },
});
const level = (record: unknown) => assessRisk(record).level;

describe("assessRisk", () => {
  it("a record with nothing wrong (or nothing at all) is low, with no reasons", () => {
    expect(assessRisk({})).toEqual({ level: "low", reasons: [] });
    expect(
      assessRisk({
        ...dev({
          dev_sold: false,
          dev_sold_percentage: "90",
          fresh_wallet: false,
          bundle_wallet_supply_percentage: "4.99",
        }),
        ...holders({ top_10_holder_percentage: "49.99", holder_count_change_percentage_24h: "-4.99" }),
        ...metrics("5", "100"),
        rug_status: "SAFE",
      }),
    ).toEqual({ level: "low", reasons: [] });
  });

  it("dev sold: medium once the dev sold, high from 25%", () => {
    expect(level(dev({ dev_sold: true, dev_sold_percentage: "0.00" }))).toBe("medium");
    expect(level(dev({ dev_sold: true, dev_sold_percentage: "24.999999999999999999" }))).toBe("medium");
    expect(level(dev({ dev_sold: true, dev_sold_percentage: "25" }))).toBe("high");
    expect(level(dev({ dev_sold: true, dev_sold_percentage: "25.00" }))).toBe("high");
    expect(level(dev({ dev_sold: true }))).toBe("medium");
    expect(level(dev({ dev_sold: false, dev_sold_percentage: "99" }))).toBe("low");
    expect(assessRisk(dev({ dev_sold: true, dev_sold_percentage: "45.2" })).reasons).toEqual([
      {
        level: "high",
        rule: "dev sold",
        field: "dev_wallet_insights.dev_sold_percentage",
        value: "45.2",
        unit: "%",
        threshold: ">= 25",
      },
    ]);
  });

  it("bundled supply: medium from 5%, high from 15%", () => {
    const at = (v: unknown) => level(dev({ bundle_wallet_supply_percentage: v }));
    expect(at("4.99")).toBe("low");
    expect(at("5")).toBe("medium");
    expect(at("14.999")).toBe("medium");
    expect(at("15.00")).toBe("high");
    expect(at(null)).toBe("low");
    expect(at(new LosslessNumber("1.5e1"))).toBe("high");
  });

  it("top-10 holding: medium from 50%, high from 80%", () => {
    const at = (v: unknown) => level(holders({ top_10_holder_percentage: v }));
    expect(at("49.99")).toBe("low");
    expect(at("50")).toBe("medium");
    expect(at("79.99")).toBe("medium");
    expect(at(80)).toBe("high");
    expect(
      assessRisk({ agent_holder_insights: { top_10_holder_percentage: "80" } }, AGENT_SECTIONS).level,
    ).toBe("high");
  });

  it("holder count falling: medium at -5% or less, high at -20% or less", () => {
    const at = (v: unknown) => level(holders({ holder_count_change_percentage_24h: v }));
    expect(at("-4.99")).toBe("low");
    expect(at("5")).toBe("low");
    expect(at("-5")).toBe("medium");
    expect(at("-19.99")).toBe("medium");
    expect(at("-20.00")).toBe("high");
    expect(at("-75")).toBe("high");
  });

  it("liquidity against market cap: medium below 5%, high below 1%, exactly", () => {
    expect(level(metrics("5", "100"))).toBe("low");
    expect(level(metrics("4.99", "100"))).toBe("medium");
    expect(level(metrics("1", "100"))).toBe("medium");
    expect(level(metrics("0.99", "100"))).toBe("high");
    expect(level(metrics("0", "100"))).toBe("high");
    expect(level(metrics("5", "0"))).toBe("low"); // no market cap, no ratio
    expect(level(metrics(undefined, "100"))).toBe("low");
    // 1/3 of a percent past 5: digits a double would round
    expect(level(metrics("5000000000000000000001", "100000000000000000000000"))).toBe("low");
    expect(level(metrics("4999999999999999999999", "100000000000000000000000"))).toBe("medium");
    expect(liquidityShare("1", "3")?.int).toBe("33");
  });

  // The share a reason gives keeps 4 significant digits, rounded half up (two places would make
  // 113,640.82 of 1,281,803,064.19 "0").
  it.each([
    ["113640.82", "1281803064.19", "0.008866"],
    ["1", "300", "0.3333"],
    ["2", "300", "0.6667"],
    // Rounded onto the threshold it is below, it would read "5 (medium at < 5)": more digits.
    ["4.99995", "100", "4.99995"],
    ["0.999999", "100", "0.999999"],
    ["0.99", "100", "0.99"],
    ["3.4567", "100", "3.457"],
    ["1", "1000000000000", "0.0000000001"],
  ])("the liquidity share of %s against %s is %s", (liquidity, mcap, shown) => {
    const reason = assessRisk(metrics(liquidity, mcap)).reasons.find((r) => r.rule.startsWith("liquidity"));
    expect(reason?.value).toBe(shown);
  });

  it("fresh dev wallet is medium", () => {
    expect(level(dev({ fresh_wallet: true }))).toBe("medium");
    expect(level(dev({ fresh_wallet: "true" }))).toBe("low");
  });

  it("rug_status when sent: safe words nothing, high words high, anything else medium", () => {
    expect(level({ rug_status: "SAFE" })).toBe("low");
    expect(level({ rug_status: "low" })).toBe("low");
    expect(level({ rug_status: "CAUTION" })).toBe("medium");
    expect(level({ rug_status: "something new" })).toBe("medium");
    expect(level({ rug_status: "HIGH_RISK" })).toBe("high");
    expect(level({ rug_status: "" })).toBe("low");
  });

  it("the level is the highest reason's; reasons cite field and value in rule order", () => {
    const v = assessRisk({
      ...dev({
        dev_sold: true,
        dev_sold_percentage: "3",
        bundle_wallet_supply_percentage: "16",
        fresh_wallet: true,
      }),
      ...holders({ top_10_holder_percentage: "55" }),
    });
    expect(v.level).toBe("high");
    expect(v.reasons.map((r) => [r.rule, r.level, r.value])).toEqual([
      ["dev sold", "medium", "3"],
      ["bundled supply", "high", "16"],
      ["top-10 holding", "medium", "55"],
      ["fresh dev wallet", "medium", "true"],
    ]);
  });

  it("reaches() orders the levels; the help table lists every rule", () => {
    expect(reaches("high", "medium")).toBe(true);
    expect(reaches("medium", "medium")).toBe(true);
    expect(reaches("low", "medium")).toBe(false);
    expect(reaches("medium", "high")).toBe(false);
    const labels = thresholdRows().map((row) => row[0]);
    for (const rule of THRESHOLDS) expect(labels).toContain(rule.label);
    expect(labels).toContain("fresh dev wallet");
    expect(labels).toContain("rug status (agents)");
  });
});

describe("a rule of the table", () => {
  it("reads a text field's words into levels: the agents' rug_status as a rule of its own", () => {
    const rule: RiskRule = {
      id: "agent_rug_status",
      read: "words",
      label: "service rug status",
      measure: "rug_status",
      field: "rug_status",
      levels: { high: ["HIGH_RISK"], medium: ["CAUTION"] },
      safe: [],
      help: ["CAUTION", "HIGH_RISK"],
    };
    const verdict = (status: unknown) => assessRisk({ rug_status: status }, AGENT_SECTIONS, [rule]);
    expect(verdict(" caution ")).toEqual({
      level: "medium",
      reasons: [
        {
          level: "medium",
          rule: "service rug status",
          field: "rug_status",
          value: " caution ",
          unit: null,
          threshold: "CAUTION",
        },
      ],
    });
    expect(verdict("HIGH_RISK").reasons[0]).toMatchObject({ level: "high", threshold: "HIGH_RISK" });
    expect(verdict("SOMETHING_NEW")).toEqual({ level: "low", reasons: [] });
    expect(verdict(3)).toEqual({ level: "low", reasons: [] });
  });

  it("reads a field of the record's own section, named in the rule by the section's role", () => {
    const rule: RiskRule = {
      id: "top10",
      read: "number",
      label: "top-10 holding",
      measure: "top_10_holder_percentage",
      field: "holders.top_10_holder_percentage",
      direction: ">=",
      medium: "50",
      high: "80",
    };
    const agent = { agent_holder_insights: { top_10_holder_percentage: "60" } };
    expect(assessRisk(agent, AGENT_SECTIONS, [rule]).reasons).toEqual([
      {
        level: "medium",
        rule: "top-10 holding",
        field: "agent_holder_insights.top_10_holder_percentage",
        value: "60",
        unit: "%",
        threshold: ">= 50",
      },
    ]);
    expect(assessRisk(agent, undefined, [rule]).level).toBe("low");
  });
});

describe("FLAGS column", () => {
  it("reads the same thresholds: nothing below them, the flag at them", () => {
    expect(riskFlags(dev({ bundle_wallet_supply_percentage: "4.99" }))).toEqual({ text: "-", tone: "dim" });
    expect(riskFlags(dev({ bundle_wallet_supply_percentage: "5" }))).toEqual({
      text: "BUNDLED 5%",
      tone: "warn",
    });
    expect(riskFlags(dev({ bundle_wallet_supply_percentage: "15" }))).toEqual({
      text: "BUNDLED 15%",
      tone: "bad",
    });
    expect(riskFlags(holders({ top_10_holder_percentage: "80" }))).toEqual({
      text: "TOP10 80%",
      tone: "bad",
    });
    expect(riskFlags(dev({ dev_sold: true, dev_sold_percentage: "10" }))).toEqual({
      text: "DEV SOLD 10%",
      tone: "warn",
    });
  });
});
