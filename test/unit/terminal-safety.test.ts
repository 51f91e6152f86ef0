import type { Stats } from "node:fs";
import { describe, expect, it } from "vitest";
import { assertTrusted, untrustedReason } from "../../src/config/locations.js";
import type { CliError } from "../../src/errors.js";
import { IO } from "../../src/io.js";
import { LosslessNumber } from "../../src/json/exact.js";
import { MAX_EXPANDED_EXPONENT, toPlainDecimal } from "../../src/numbers/decimal.js";
import { columnForPath } from "../../src/output/columns.js";
import { formatCompact, formatInteger, formatPercent, formatPrice } from "../../src/output/format.js";
import { renderTable } from "../../src/output/table.js";
import { escapeForTerminal, quoteInline } from "../../src/terminal/sanitize.js";
import { redactSecrets, secretForms } from "../../src/terminal/secrets.js";

// What makes text safe, at its edges: escapes made visible, secrets redacted, the config store's
// ownership checked, numbers in exponent form formatted.

describe("escapeForTerminal", () => {
  it("turns every active character into a visible escape; newlines, tabs and CRLF stay", () => {
    expect(escapeForTerminal("a\x1b]52;c;eA==\x07b")).toBe("a\\u001b]52;c;eA==\\u0007b");
    expect(escapeForTerminal("\u009b2J\u202e\u2066\u2069\x7f\x85")).toBe(
      "\\u009b2J\\u202e\\u2066\\u2069\\u007f\\u0085",
    );
    expect(escapeForTerminal("a,b\r\nc\td\n")).toBe("a,b\r\nc\td\n");
    expect(escapeForTerminal("over\rwrite")).toBe("over\\u000dwrite");
  });
  it("leaves JSON the same JSON", () => {
    const value = { name: "x\u009b31m\u202eevil\x1b[2J", list: ["\u2066", "ok"] };
    const text = JSON.stringify(value, null, 2);
    const escaped = escapeForTerminal(text);
    expect(escaped).not.toMatch(/[\x1b\x9b\u202e\u2066]/);
    expect(JSON.parse(escaped)).toEqual(value);
  });
});

describe("quoteInline: what a message quotes of a server's text", () => {
  it("one line; past the bound, its start and how many characters were cut", () => {
    expect(quoteInline("a\nb\x1b[2Jc")).toBe("a bc");
    expect(quoteInline("x".repeat(200))).toBe("x".repeat(200));
    expect(quoteInline("x".repeat(3_000_000))).toBe(`${"x".repeat(200)}… (2999800 more characters cut)`);
    expect(quoteInline("abcdef", 4)).toBe("abcd… (2 more characters cut)");
  });
  it("never cuts a character in half", () => {
    expect(quoteInline("abc😀def", 4)).toBe("abc… (5 more characters cut)");
  });
});

describe("secret redaction", () => {
  const KEY = "k+y/with=amp&and space/Z9é";
  const io = new IO({ env: {} });
  io.addSecret(KEY);
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const b64url = (s: string) => Buffer.from(s).toString("base64url");
  const uri = encodeURIComponent(KEY);
  const form = new URLSearchParams({ k: KEY }).toString().slice(2);
  it.each([
    ["raw", KEY],
    ["encodeURIComponent", uri],
    ["lower-case hex", uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ["mixed-case hex", uri.replace("%2B", "%2b")],
    ["form-encoded", form],
    ["encodeURI", encodeURI(KEY)],
    ["encoded twice", encodeURIComponent(uri)],
    ["JSON-escaped", JSON.stringify(KEY).slice(1, -1).replace(/\//g, "\\/")],
    ["base64", b64(KEY)],
    ["base64url", b64url(KEY)],
    ["base64 of the encoded", b64(uri)],
    ["base64url of the encoded", b64url(uri)],
    ["base64 of the form-encoded", b64(form)],
  ])("%s", (_, form) => {
    const out = io.redact(`before ${form} after`);
    expect(out).toBe("before *** after");
  });
  it("inside a longer base64 text, at any alignment: nothing of the middle is left", () => {
    for (const lead of ["", "a", "ab", "abc"]) {
      const text = b64(`${lead}${KEY};trailing`);
      const out = io.redact(text);
      expect(out).toContain("***");
      // What is left is at most the few characters a neighbouring byte shares with the key.
      expect(out.replace("***", "").length).toBeLessThan(text.length - b64(KEY).length + 8);
    }
  });
  it("in a table cell, also when a control character that is taken out had split the key", () => {
    const split = `${KEY.slice(0, 6)}\x07${KEY.slice(6, 12)}\x1b[0m${KEY.slice(12)}`;
    const records = [{ token_info: { name: split } }, { token_info: { name: `plain ${KEY}` } }];
    const { text } = renderTable(records, [columnForPath("token_info.name")], io);
    expect(text).not.toContain(KEY.slice(0, 12));
    expect(text.match(/\*\*\*/g)).toHaveLength(2);
  });
  it("leaves other text alone and needs no registered secret", () => {
    expect(io.redact("a plain line with k and y")).toBe("a plain line with k and y");
    expect(redactSecrets("anything", [])).toBe("anything");
    expect(secretForms("abcd").pattern.test("xxabcdxx")).toBe(true);
  });
});

describe("config ownership, with an injected stat", () => {
  const stat = (uid: number, mode: number) => () => ({ uid, mode }) as unknown as Stats;
  it("accepts the user's own 0600 file and 0700 folder", () => {
    expect(assertTrusted("/c/config.json", "file", stat(1000, 0o100600), 1000)).toBe(true);
    expect(assertTrusted("/c", "folder", stat(1000, 0o40700), 1000)).toBe(true);
    expect(untrustedReason("/c/config.json", "file", { uid: 1000, mode: 0o644 }, 1000)).toBeUndefined();
  });
  it("refuses another user's file, root's included", () => {
    expect(() => assertTrusted("/c/config.json", "file", stat(0, 0o100600), 1000)).toThrow(
      "the config file /c/config.json is not yours (owner uid 0); remove it, or set TOKENINTEL_CONFIG_DIR to a folder of your own",
    );
    expect(() => assertTrusted("/c", "folder", stat(1001, 0o40700), 1000)).toThrow(
      /not yours \(owner uid 1001\)/,
    );
  });
  it("refuses a file or folder that group or others may write, with the chmod that fixes it", () => {
    expect(untrustedReason("/c/config.json", "file", { uid: 5, mode: 0o100620 }, 5)).toBe(
      "the config file /c/config.json is writable by others (mode 0620); run: chmod 600 '/c/config.json'",
    );
    expect(untrustedReason("/c", "folder", { uid: 5, mode: 0o40777 }, 5)).toMatch(
      /mode 0777\); run: chmod 700 '\/c'/,
    );
  });
  it("is a usage error (exit 2); a missing path passes", () => {
    try {
      assertTrusted("/c", "folder", stat(2, 0o40700), 1);
      expect.unreachable();
    } catch (error) {
      expect((error as CliError).exitCode).toBe(2);
    }
    const missing = () => {
      throw Object.assign(new Error("gone"), { code: "ENOENT" });
    };
    expect(assertTrusted("/nope", "file", missing, 1)).toBe(false);
  });
});

describe("numbers in exponent form", () => {
  it.each([
    ["1.5e-07", "0.00000015"],
    ["2.5e+06", "2500000"],
    ["-3E-2", "-0.03"],
    ["1e0", "1"],
    ["1.2300e2", "123"],
    ["0e5", "0"],
    ["007", "007"],
  ])("toPlainDecimal(%s) = %s", (input, expected) => {
    expect(toPlainDecimal(input)).toBe(expected);
  });
  it("does not write out an exponent beyond the limit, nor read junk", () => {
    expect(toPlainDecimal(`1e${MAX_EXPANDED_EXPONENT + 1}`)).toBeUndefined();
    expect(toPlainDecimal("1e99999999999999999999")).toBeUndefined();
    expect(toPlainDecimal("1e")).toBeUndefined();
    expect(toPlainDecimal("Infinity")).toBeUndefined();
    expect(toPlainDecimal("NaN")).toBeUndefined();
  });
  it.each([
    ["1.5e-07", "0.0₆1500"],
    ["2.5e+06", "2,500,000.00"],
    ["-3E-2", "-0.03"],
    ["1e-400", "0.0₃₉₉1000"],
    // Past 24 digits, written short as the MCAP column writes it: no column pushed off the table.
    ["1e400", "1e+400"],
    ["-1.234e400", "-1.23e+400"],
    ["123456789012345678901234567", "1.23e+26"],
  ])("formatPrice(%s) = %s", (input, expected) => {
    expect(formatPrice(input)).toBe(expected);
    expect(formatPrice(new LosslessNumber(input))).toBe(expected);
  });
  it("compact amounts, percentages and integers", () => {
    expect(formatCompact("2.5e+06", "$")).toBe("$2.50M");
    expect(formatCompact(new LosslessNumber("1e400"), "$")).toBe("$1e+400");
    expect(formatCompact("-9.999e30", "$")).toBe("-$1e+31");
    expect(formatCompact("1.5e-07", "$")).toBe("$0.0₆1500");
    expect(formatCompact("-3E-2")).toBe("-0.03");
    expect(formatCompact("1e23")).toBe("100000000000.00T");
    expect(formatCompact("1e24")).toBe("1e+24");
    expect(formatPercent("-3E-2")).toBe("-0.03%");
    expect(formatPercent(new LosslessNumber("1e400"))).toBe("+1e+400%");
    expect(formatPercent("-1.5E+401")).toBe("-1.5e+401%");
    expect(formatPercent("1.5e-07")).toBe("0.00%");
    expect(formatPercent("1e22")).toBe("+10000000000000000000000.00%");
    expect(formatInteger("2.5e+06")).toBe("2,500,000");
    expect(formatInteger(new LosslessNumber("1e23"))).toBe(`100${",000".repeat(7)}`);
    expect(formatInteger(new LosslessNumber("1e30"))).toBe("1e+30");
    for (const f of [formatPrice, formatPercent, formatInteger, (v: unknown) => formatCompact(v, "$")]) {
      for (const v of ["1e400", "-1e400", "1e-400", "9.99999e20", new LosslessNumber("1E+308")])
        expect(f(v)).not.toMatch(/Infinity|NaN/);
    }
  });
  it("a beyond-the-limit exponent is shown as sent", () => {
    expect(formatPrice(new LosslessNumber("1e999999"))).toBe("1e999999");
    expect(formatCompact("1e999999", "$")).toBe("1e999999");
  });
});
