import { describe, expect, it } from "vitest";
import { checkEntry } from "../ledger/ledger.ts";
import {
  type AssetPrices,
  accrueInterest,
  borrow,
  forcedLiquidation,
  hourlyInterest,
  type MarginAccount,
  marginLevelPpm,
  maxBorrowable,
  needsForcedLiquidation,
  repay,
  transferOut,
} from "./margin-loans.ts";
import { usdt } from "./scales.ts";

const prices: AssetPrices = new Map([["BTC", usdt(97_000)]]);
const account = (
  assets: [string, bigint][],
  loans: [string, bigint, bigint][] = [],
  mode: "cross" | "isolated" = "cross",
): MarginAccount => ({
  accountId: 5,
  mode,
  pair: mode === "isolated" ? "BTCUSDT" : undefined,
  assets: new Map(assets),
  loans: new Map(loans.map(([a, principal, interest]) => [a, { principal, interest }])),
});

describe("margin borrowing", () => {
  it("margin level = assets / (borrowed + interest)", () => {
    // 1 BTC (97,000) + 10,000 USDT against 20,000 USDT + 5 interest: 107,000 / 20,005 = 5.348662...
    const a = account(
      [
        ["BTC", 100_000_000n],
        ["USDT", usdt(10_000)],
      ],
      [["USDT", usdt(20_000), usdt(5)]],
    );
    expect(marginLevelPpm(a, prices)).toBe(5_348_662n);
    expect(marginLevelPpm(account([["USDT", usdt(1)]]), prices)).toBeNull();
  });

  it("max borrowable: net equity x (leverage - 1) - debts, 3x cross and 10x isolated", () => {
    const cross = account([["USDT", usdt(1_000)]]);
    expect(maxBorrowable(cross, "USDT", prices)).toBe(usdt(2_000));
    // 2,000 / 97,000 = 0.020618556... BTC -> 2,061,855 satoshi (rounded down).
    expect(maxBorrowable(cross, "BTC", prices)).toBe(2_061_855n);
    expect(maxBorrowable(account([["USDT", usdt(1_000)]], [], "isolated"), "USDT", prices)).toBe(usdt(9_000));
    // Borrowing the maximum leaves margin level 3 / 2 = 1.5.
    const r = borrow(cross, "USDT", usdt(2_000), prices);
    if (!r.ok) throw new Error(r.error.code);
    expect(marginLevelPpm(r.value.account, prices)).toBe(1_500_000n);
    expect(checkEntry(r.value.entry)).toBeNull();
    expect(maxBorrowable(r.value.account, "USDT", prices)).toBe(0n);
    expect(borrow(cross, "USDT", usdt(2_000) + 1n, prices).ok).toBe(false);
  });

  it("accrues hourly interest on the principal, rounded up", () => {
    // 10,000 USDT at 0.02 % a day: 10,000 x 0.0002 / 24 = 0.0833333... -> 0.08333334.
    expect(hourlyInterest(usdt(10_000), 20_000n)).toBe(8_333_334n);
    const a = account([["USDT", usdt(30_000)]], [["USDT", usdt(10_000), 0n]]);
    const r = accrueInterest(a);
    expect(r.account.loans.get("USDT")).toEqual({ principal: usdt(10_000), interest: 8_333_334n });
    expect(r.entry?.postings).toEqual([
      { account: "system:interest", asset: "USDT", amount: 8_333_334n },
      { account: "system:lending", asset: "USDT", amount: -8_333_334n },
    ]);
  });

  it("repays interest first", () => {
    const a = account([["USDT", usdt(2_000)]], [["USDT", usdt(1_000), usdt(3)]]);
    const r = repay(a, "USDT", usdt(500));
    if (!r.ok) throw new Error(r.error.code);
    expect(r.value.account.loans.get("USDT")).toEqual({ principal: usdt(503), interest: 0n });
    const partial = repay(a, "USDT", usdt(2));
    if (!partial.ok) throw new Error(partial.error.code);
    expect(partial.value.account.loans.get("USDT")).toEqual({ principal: usdt(1_000), interest: usdt(1) });
    expect(repay(a, "USDT", usdt(1_004)).ok).toBe(false);
  });

  it("allows a transfer out only while the margin level stays >= 2", () => {
    // 3,000 USDT against 1,000 owed: level 3; out 1,000 leaves 2 (allowed), 1,000.01 leaves < 2.
    const a = account([["USDT", usdt(3_000)]], [["USDT", usdt(1_000), 0n]]);
    expect(transferOut(a, "USDT", usdt(1_000), prices).ok).toBe(true);
    expect(transferOut(a, "USDT", usdt(1_000) + 1n, prices).ok).toBe(false);
    expect(transferOut(account([["USDT", usdt(10)]]), "USDT", usdt(10), prices).ok).toBe(true);
  });

  it("liquidates below 1.1: debts repaid in full, the trader keeps the rest less the fee, never below zero", () => {
    // 1 BTC at 97,000 against 90,000 USDT: level 1.0778 < 1.1.
    const a = account([["BTC", 100_000_000n]], [["USDT", usdt(90_000), 0n]]);
    expect(needsForcedLiquidation(a, prices)).toBe(true);
    const r = forcedLiquidation(a, prices);
    expect(checkEntry(r.entry)).toBeNull();
    // Equity 7,000, fee 2 % x 90,000 = 1,800: the trader keeps 5,200.
    expect(r.returned).toBe(usdt(5_200));
    expect(r.insurance).toBe(usdt(1_800));
    // Underwater: 1 BTC at 80,000 against 90,000: the fund pays 10,000.
    const low: AssetPrices = new Map([["BTC", usdt(80_000)]]);
    const u = forcedLiquidation(a, low);
    expect(u.returned).toBe(0n);
    expect(u.insurance).toBe(-usdt(10_000));
    expect(u.entry.postings.find((p) => p.account === "system:lending")?.amount).toBe(usdt(90_000));
  });
});
