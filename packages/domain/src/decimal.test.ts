import { describe, expect, it } from "vitest";
import {
  add,
  ceilToStep,
  compare,
  divDown,
  floorToStep,
  formatCompact,
  formatDecimal,
  mul,
  mulDown,
  normalizeDecimal,
  percentOf,
  sanitizeDecimalInput,
  sub,
  toFixedDown,
} from "./decimal.ts";

describe("decimal strings", () => {
  it("adds, subtracts and multiplies exactly where floats drift", () => {
    expect(add("0.1", "0.2")).toBe("0.3");
    expect(sub("0.3", "0.1")).toBe("0.2");
    expect(sub("1", "1.5")).toBe("-0.5");
    expect(mul("97012.37", "0.00123")).toBe("119.3252151");
    expect(mulDown("97012.37", "0.00123", 2)).toBe("119.32");
    expect(compare("10.10", "10.1")).toBe(0);
    expect(compare("-1", "0.5")).toBe(-1);
  });

  it("divides rounding down", () => {
    expect(divDown("10", "3", 4)).toBe("3.3333");
    expect(divDown("50000", "97012.37", 5)).toBe("0.51539");
    expect(divDown("1", "0", 2)).toBe("0");
    expect(divDown("-1", "3", 2)).toBe("-0.34");
  });

  it("snaps to steps: floor for bids, ceil for asks", () => {
    expect(floorToStep("97012.37", "10")).toBe("97010");
    expect(ceilToStep("97012.37", "10")).toBe("97020");
    expect(ceilToStep("97010", "10")).toBe("97010");
    expect(floorToStep("0.123456", "0.001")).toBe("0.123");
    expect(percentOf("0.5", 25, "0.00001")).toBe("0.125");
    expect(percentOf("50000", 33, "0.00001")).toBe("16500");
    expect(percentOf("1.23456789", 100, "0.001")).toBe("1.234");
  });

  it("formats with fixed digits, cut not rounded, grouped", () => {
    expect(formatDecimal("97012.379", 2)).toBe("97,012.37");
    expect(formatDecimal("1234567", 0)).toBe("1,234,567");
    expect(formatDecimal("0.5", 4)).toBe("0.5000");
    expect(formatDecimal("-1234.5", 1)).toBe("-1,234.5");
    expect(formatDecimal("1234.5", 1, { group: false })).toBe("1234.5");
    expect(toFixedDown("-0.001", 2)).toBe("0.00");
    expect(formatCompact("1234567.89")).toBe("1.23M");
    expect(formatCompact("999.5")).toBe("999.50");
  });

  it("cleans typed input", () => {
    expect(sanitizeDecimalInput("1,5", 2)).toBe("1.5");
    expect(sanitizeDecimalInput("12.3456", 2)).toBe("12.34");
    expect(sanitizeDecimalInput("1.2.3", 4)).toBe("1.23");
    expect(sanitizeDecimalInput("abc12", 0)).toBe("12");
    expect(normalizeDecimal("12.")).toBe("12");
    expect(normalizeDecimal(".50")).toBe("0.5");
    expect(normalizeDecimal("007")).toBe("7");
    expect(normalizeDecimal(".")).toBe("");
  });
});
