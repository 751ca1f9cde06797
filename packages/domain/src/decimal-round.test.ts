import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { add, compare, divHalfUp, mul, negate, sub, toFixedHalfUp } from "./decimal.ts";

describe("rounding helpers", () => {
  it("divides rounding half away from zero", () => {
    expect(divHalfUp("1", "3", 4)).toBe("0.3333");
    expect(divHalfUp("2", "3", 4)).toBe("0.6667");
    expect(divHalfUp("0.125", "1", 2)).toBe("0.13");
    expect(divHalfUp("-0.125", "1", 2)).toBe("-0.13");
    expect(divHalfUp("12.34", "100", 6)).toBe("0.1234");
    expect(divHalfUp("970.232", "0.01", 0)).toBe("97023");
    expect(divHalfUp("1", "0", 4)).toBe("0");
    expect(divHalfUp("5", "-2", 0)).toBe("-3");
  });

  it("fixes the digits as toFixed means, without the float", () => {
    // 1.005.toFixed(2) is "1.00" in floats; the decimal is exactly half way.
    expect(toFixedHalfUp("1.005", 2)).toBe("1.01");
    expect(toFixedHalfUp("0.1234", 6)).toBe("0.123400");
    expect(toFixedHalfUp("-2.5", 0)).toBe("-3");
    expect(toFixedHalfUp("-0.004", 2)).toBe("0.00");
    expect(toFixedHalfUp("97023.2", 8)).toBe("97023.20000000");
  });

  it("negates", () => {
    expect(negate("0.0123")).toBe("-0.0123");
    expect(negate("-5")).toBe("5");
    expect(negate("0")).toBe("0");
  });

  it("divHalfUp is within half a unit of the exact quotient", () => {
    const dec = fc
      .tuple(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.integer({ min: 0, max: 10 }))
      .map(([v, s]) => {
        const neg = v < 0n;
        const digits = (neg ? -v : v).toString().padStart(s + 1, "0");
        const text = s === 0 ? digits : `${digits.slice(0, -s)}.${digits.slice(-s)}`;
        return neg ? `-${text}` : text;
      });
    fc.assert(
      fc.property(dec, dec, fc.integer({ min: 0, max: 12 }), (a, b, scale) => {
        fc.pre(compare(b, "0") !== 0);
        const q = divHalfUp(a, b, scale);
        // |q*b - a| <= |b| * 10^-scale / 2, in exact decimals.
        const err = sub(mul(q, b), a);
        const absErr = compare(err, "0") < 0 ? negate(err) : err;
        const absB = compare(b, "0") < 0 ? negate(b) : b;
        const half = mul(absB, `0.${"0".repeat(scale)}5`);
        expect(compare(absErr, half)).toBeLessThanOrEqual(0);
        expect(add(q, "0")).toBe(q);
      }),
    );
  });
});
