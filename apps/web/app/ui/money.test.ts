import { describe, expect, it } from "vitest";
import { convertUsd, formatDate, formatFiat, formatMoney } from "./money.ts";

describe("money", () => {
  it("converts exactly with decimal strings", () => {
    expect(convertUsd("0.00013", "JPY")).toEqual({ value: "0.019812", currency: "JPY" });
    expect(convertUsd("1500", "AED")).toEqual({ value: "5508.75", currency: "AED" });
    expect(convertUsd("12", "XXX")).toEqual({ value: "12", currency: "USD" });
  });
  it("formats small prices by significant digits and large ones with two decimals at most", () => {
    expect(formatMoney("0.00013", "USD", "en")).toBe("$0.00013");
    expect(formatMoney("96250.5", "USD", "en")).toBe("$96,250.50");
    expect(formatFiat("10", "EUR", "de")).toMatch(/^9,30\s€$/);
  });
  it("formats dates in UTC", () => {
    expect(formatDate(Date.UTC(2024, 4, 16), "en")).toBe("May 16, 2024");
    expect(formatDate(Date.UTC(2024, 4, 16) - 1, "en")).toBe("May 15, 2024");
    expect(formatDate(null, "en")).toBe("");
  });
});
