import { getPath } from "../../json/dot-paths.js";
import { decimalParts, multiplyDecimal } from "../../numbers/decimal.js";
import { type Cell, type Column, col } from "../../output/columns.js";
import { formatFixed, formatPlain } from "../../output/format.js";
import { intervalsPerYear } from "./funding.js";

// The board's own cells: rates the service sends as fractions (funding per interval, the book's
// imbalance) shown in percent, signed and coloured as the other tables' changes are; the spread,
// already a percent, with the places a spread needs; funding annualised where the venue's interval
// is known. Every figure is computed from the digits as sent, never through a double.

/**
 * The most digits of a rate multiplied. A rate has a handful, and a cell shows four places at most;
 * a server's number of millions of digits took seconds of CPU a cell to multiply whole. Past this,
 * the fraction's further digits are left out (they could only turn an exact tie at the last place
 * shown), and an integer part this long is shown as sent.
 */
const MAX_RATE_DIGITS = 64;

/** `value` × `factor` from its digits; undefined when it is not a number or its integer part is too long. */
export function scaled(value: unknown, factor: bigint): string | undefined {
  const parts = decimalParts(value);
  if (!parts || parts.int.length > MAX_RATE_DIGITS) return undefined;
  const digits =
    parts.frac.length > MAX_RATE_DIGITS
      ? `${parts.sign}${parts.int}.${parts.frac.slice(0, MAX_RATE_DIGITS)}`
      : value;
  return multiplyDecimal(digits, factor);
}

/** A signed percentage cell from decimal text: "+0.0013%" up, "-7.92%" down, "0.00%" plain. */
function signedPercent(value: unknown, text: string | undefined, places: number): Cell {
  if (text === undefined) return { text: formatPlain(value) };
  const fixed = formatFixed(text, places);
  if (!/[1-9]/.test(fixed)) return { text: `${fixed.replace("-", "")}%` };
  return fixed.startsWith("-") ? { text: `${fixed}%`, tone: "down" } : { text: `+${fixed}%`, tone: "up" };
}

/** A fraction shown in percent: 0.000013 → "+0.0013%" (4 places), -0.079192 → "-7.92%" (2). */
export function fractionPercent(header: string, path: string, places: number): Column {
  return col(header, path, "percent", {
    compute: (record) => {
      const value = getPath(record, path);
      return signedPercent(value, scaled(value, 100n), places);
    },
  });
}

/** A percent as sent, unsigned, to `places`: 0.002354 → "0.0024%". */
export function plainPercent(header: string, path: string, places: number): Column {
  return col(header, path, "percent", {
    compute: (record) => {
      const value = getPath(record, path);
      const text = formatFixed(value, places);
      return { text: decimalParts(value) ? `${text}%` : text };
    },
  });
}

/**
 * The funding rate a year: the rate per interval × the venue's intervals in 365 days, in percent
 * ("+11.39%"); "n/a" where the venue's interval is not known (funding.ts).
 */
export function annualFunding(header: string, path: string, venuePath: string): Column {
  return col(header, [path, venuePath], "percent", {
    compute: (record) => {
      const perYear = intervalsPerYear(getPath(record, venuePath));
      if (perYear === undefined) return { text: "n/a", tone: "dim" };
      const value = getPath(record, path);
      return signedPercent(value, scaled(value, perYear * 100n), 2);
    },
  });
}
