import { describe, expect, it } from "vitest";
import { Prng } from "../prng.ts";
import { initialMargin, notionalAt, PERP_CONTRACTS } from "./contracts.ts";
import { decideLiquidations, type FuturesAccount } from "./liquidation.ts";
import type { PerpPosition } from "./position.ts";
import { RiskBook } from "./risk-book.ts";
import { usdt } from "./scales.ts";

const START = [600_000, 300_000, 19_000, 65_000, 23_000, 22_000];

function randomBook(seed: number, count: number) {
  const rng = new Prng(seed);
  const book = new RiskBook(8);
  const positions = new Map<number, PerpPosition>();
  const wallets = new Map<number, bigint>();
  START.forEach((t, i) => {
    const c = PERP_CONTRACTS[i];
    if (c !== undefined) book.setMark(c.symbol, t);
  });
  for (let id = 1; id <= count; id++) {
    const c = PERP_CONTRACTS[rng.int(0, PERP_CONTRACTS.length - 1)];
    if (c === undefined) throw new Error("no contract");
    const mark = START[c.index] ?? 1;
    const lots = rng.int(1, 500) * (rng.next() < 0.5 ? -1 : 1);
    const entry = Math.round(mark * (0.97 + rng.next() * 0.06));
    const leverage = rng.int(1, 20);
    const cost = notionalAt(c, lots, entry);
    const isolated = rng.next() < 0.5;
    const p: PerpPosition = {
      accountId: rng.int(1, Math.max(1, count >> 2)),
      symbol: c.symbol,
      positionSide: "BOTH",
      marginMode: isolated ? "isolated" : "cross",
      leverage,
      lots,
      cost,
      isolatedMargin: isolated ? initialMargin(cost, leverage) : 0n,
    };
    positions.set(id, p);
    book.setPosition(id, p);
    if (!isolated) wallets.set(p.accountId, (wallets.get(p.accountId) ?? 0n) + initialMargin(cost, leverage));
  }
  for (const [a, w] of wallets) book.setWallet(a, w);
  return { rng, book, positions, wallets };
}

function exact(
  positions: Map<number, PerpPosition>,
  wallets: Map<number, bigint>,
  marks: Map<string, number>,
) {
  const byAccount = new Map<number, PerpPosition[]>();
  for (const p of positions.values()) byAccount.set(p.accountId, [...(byAccount.get(p.accountId) ?? []), p]);
  const accounts: FuturesAccount[] = [...byAccount].map(([accountId, ps]) => ({
    accountId,
    wallet: wallets.get(accountId) ?? 0n,
    positions: ps,
  }));
  const ids = new Map([...positions].map(([id, p]) => [p, id]));
  const d = decideLiquidations(accounts, marks);
  return {
    cross: new Set(d.filter((x) => x.cross).map((x) => x.accountId)),
    isolated: new Set(d.flatMap((x) => x.isolated.map((p) => ids.get(p)))),
  };
}

describe("RiskBook", () => {
  it("finds exactly what the bigint rule finds, through moves, updates and removals", () => {
    const { rng, book, positions, wallets } = randomBook(42, 3_000);
    const marks = new Map(PERP_CONTRACTS.map((c) => [c.symbol, START[c.index] ?? 1]));
    let found = 0;
    for (let step = 0; step < 30; step++) {
      for (const c of PERP_CONTRACTS) {
        const next = Math.max(1, Math.round((marks.get(c.symbol) ?? 1) * (1 + (rng.next() - 0.5) * 0.08)));
        marks.set(c.symbol, next);
        book.setMark(c.symbol, next);
      }
      // Churn: drop some positions, resize others.
      for (let k = 0; k < 50; k++) {
        const id = rng.int(1, 3_000);
        const p = positions.get(id);
        if (p === undefined) continue;
        if (rng.next() < 0.5) {
          positions.delete(id);
          book.removePosition(id);
        } else {
          const q = { ...p, lots: p.lots * 2, cost: p.cost * 2n, isolatedMargin: p.isolatedMargin * 2n };
          positions.set(id, q);
          book.setPosition(id, q);
        }
      }
      const pass = book.pass();
      const want = exact(positions, wallets, marks);
      expect(new Set(pass.crossAccounts)).toEqual(want.cross);
      expect(new Set(pass.isolated)).toEqual(want.isolated);
      found += pass.crossAccounts.length + pass.isolated.length;
    }
    expect(book.size).toBe(positions.size);
    expect(found).toBeGreaterThan(0);
  });

  it("reports margin ratios and the account's positions", () => {
    const book = new RiskBook();
    book.setMark("BTCUSDT", 500_000);
    book.setWallet(9, usdt(100));
    const p: PerpPosition = {
      accountId: 9,
      symbol: "BTCUSDT",
      positionSide: "BOTH",
      marginMode: "cross",
      leverage: 10,
      lots: 100,
      cost: usdt(5_000),
      isolatedMargin: 0n,
    };
    book.setPosition(1, p);
    book.setPosition(2, { ...p, symbol: "BTCUSDT", positionSide: "SHORT", lots: -50, cost: usdt(2_500) });
    expect(book.positionsOf(9)).toHaveLength(2);
    // Flat at entry: margin balance 100, maintenance 20 + 10 = 30 -> 0.3.
    expect(book.pass()).toEqual({ isolated: [], crossAccounts: [], exactChecks: 0 });
    expect(book.marginRatio(1)).toBeCloseTo(0.3, 12);
    book.setMark("BTCUSDT", 480_000);
    // Net long 0.05 BTC loses 100: margin balance 0 <= maintenance.
    expect(book.pass().crossAccounts).toEqual([9]);
    book.removePosition(1);
    expect(book.positionsOf(9)).toHaveLength(1);
    // No mark for DOGEUSDT yet: valued at entry (cross) or left alone (isolated), never liquidated at zero.
    book.setPosition(3, { ...p, accountId: 10, symbol: "DOGEUSDT", lots: 1_000, cost: usdt(220) });
    book.setPosition(4, {
      ...p,
      accountId: 10,
      symbol: "DOGEUSDT",
      marginMode: "isolated",
      lots: 10,
      cost: usdt(2),
      isolatedMargin: 1n,
    });
    book.setWallet(10, usdt(30));
    // Account 9 keeps only the short, in profit at 48,000.
    expect(book.pass()).toEqual({ isolated: [], crossAccounts: [], exactChecks: 0 });
    expect(() => book.setMark("DOGEUSDT", 0)).toThrow(RangeError);
    expect(book.walletOf(9)).toBe(usdt(100));
  });
});
