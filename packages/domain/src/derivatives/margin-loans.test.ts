import { describe, expect, it } from "vitest";
import { checkEntry } from "../ledger/ledger.ts";
import {
  type AssetPrices,
  accrueInterest,
  borrow,
  forcedLiquidation,
  hourlyInterest,
  isolatedLiquidationPrice,
  type MarginAccount,
  marginLevelPpm,
  maxBorrowable,
  maxTransferOut,
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

  it("counts funds held for open orders as assets, but not as free", () => {
    const free = account([["USDT", usdt(400)]], [["USDT", usdt(500), 0n]]);
    const withLocked: MarginAccount = { ...free, locked: new Map([["USDT", usdt(600)]]) };
    // 1,000 of assets against 500 owed: level 2; the 600 held cannot be repaid or moved.
    expect(marginLevelPpm(withLocked, prices)).toBe(2_000_000n);
    expect(repay(withLocked, "USDT", usdt(401)).ok).toBe(false);
    expect(maxTransferOut(withLocked, "USDT", prices)).toBe(0n);
    expect(() => forcedLiquidation(withLocked, prices)).toThrow(RangeError);
  });

  it("max transferable keeps the level at 2, and is the whole balance without debt", () => {
    const a = account([["USDT", usdt(3_000)]], [["USDT", usdt(1_000), 0n]]);
    expect(maxTransferOut(a, "USDT", prices)).toBe(usdt(1_000));
    const b = account([
      ["BTC", 12_345n],
      ["USDT", usdt(5)],
    ]);
    expect(maxTransferOut(b, "BTC", prices)).toBe(12_345n);
    // 0.1 BTC (9,700) against 2,000 USDT: keep 4,000 of value -> 5,700 of BTC may go.
    const c = account([["BTC", 10_000_000n]], [["USDT", usdt(2_000), 0n]]);
    const max = maxTransferOut(c, "BTC", prices);
    expect(transferOut(c, "BTC", max, prices).ok).toBe(true);
    expect(transferOut(c, "BTC", max + 1n, prices).ok).toBe(false);
    expect(max).toBe(5_876_288n);
  });

  it("isolated liquidation price: where the level reaches 1.1", () => {
    const a = account([["BTC", 100_000_000n]], [["USDT", usdt(90_000), 0n]], "isolated");
    expect(isolatedLiquidationPrice(a, "BTC")).toBe(usdt(99_000));
    // Short: 20,000 USDT held, 0.1 BTC owed: 20,000 = 1.1 x 0.1 x P -> P = 181,818.18...
    const s = account([["USDT", usdt(20_000)]], [["BTC", 10_000_000n, 0n]], "isolated");
    expect(isolatedLiquidationPrice(s, "BTC")).toBe(18_181_818_181_818n);
    expect(isolatedLiquidationPrice(account([["USDT", usdt(1)]], [], "isolated"), "BTC")).toBeNull();
    // 2 BTC against 1,000 USDT: 2 x P = 1,100 -> P = 550.
    const l = account([["BTC", 200_000_000n]], [["USDT", usdt(1_000), 0n]], "isolated");
    expect(isolatedLiquidationPrice(l, "BTC")).toBe(usdt(550));
  });
});
