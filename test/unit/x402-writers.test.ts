import { describe, expect, it } from "vitest";
import { pickPaths } from "../../src/json/dot-paths.js";
import { LosslessNumber } from "../../src/json/exact.js";
import { toCsv } from "../../src/output/writers.js";
import { formatUnits } from "../../src/payment/amounts.js";
import { describePrice, readPaymentRequirements } from "../../src/payment/offers.js";

describe("x402 requirements", () => {
  const accept = {
    scheme: "exact",
    network: "base",
    maxAmountRequired: "5000",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    payTo: "0xabc",
  };
  it("reads version 1 from the body", () => {
    const [req] = readPaymentRequirements({ x402Version: 1, accepts: [accept] }, undefined);
    expect(describePrice(req!)).toBe("0.005 USDC on Base");
  });
  it("reads version 2 from the PAYMENT-REQUIRED header", () => {
    const header = Buffer.from(
      JSON.stringify({
        x402Version: 2,
        accepts: [{ ...accept, network: "eip155:8453", amount: "10000", maxAmountRequired: undefined }],
      }),
    ).toString("base64");
    const [req] = readPaymentRequirements({}, header);
    expect(req!.x402Version).toBe(2);
    expect(describePrice(req!)).toBe("0.01 USDC on Base");
  });
  it("formatUnits is exact", () => {
    expect(formatUnits("5000", 6)).toBe("0.005");
    expect(formatUnits("1000000", 6)).toBe("1");
    expect(formatUnits("0", 6)).toBe("0");
    expect(formatUnits("123456789012345678901", 18)).toBe("123.456789012345678901");
  });
});

describe("csv and projection", () => {
  it("quotes, flattens and guards against formula injection", () => {
    const csv = toCsv([
      { id: "1", info: { name: 'a "quoted", name', tags: ["x"] }, n: new LosslessNumber("1.10"), z: null },
      { id: "2", info: { name: "=HYPERLINK()" }, n: -5 },
    ]);
    expect(csv).toBe(
      'id,info.name,info.tags,n,z\n1,"a ""quoted"", name","[""x""]",1.10,\n2,\'=HYPERLINK(),,-5,\n',
    );
  });
  it("numbers in every form stay numbers; a formula after a semicolon (a separator in some locales) is kept in its cell", () => {
    const csv = toCsv([
      {
        a: new LosslessNumber("-1e400"),
        b: "+2.5",
        c: "-.5",
        d: "a;=cmd|' /C calc'!A0",
        e: "-x",
        f: "@SUM(1)",
        g: "\t=1",
      },
    ]);
    expect(csv.split("\n")[1]).toBe(`-1e400,+2.5,-.5,"a;=cmd|' /C calc'!A0",'-x,'@SUM(1),'\t=1`);
  });
  it("pickPaths keeps nesting and skips absent paths", () => {
    expect(pickPaths({ a: { b: 1, c: 2 }, d: 3 }, ["a.b", "d", "x.y"])).toEqual({ a: { b: 1 }, d: 3 });
  });
});
