import { describe, expect, it } from "vitest";
import { checkEntry } from "../ledger/ledger.ts";
import { requirePerp } from "./contracts.ts";
import {
  addPremiumSample,
  averagePremiumE8,
  fundingPayment,
  fundingRateE8,
  INITIAL_MARK_STATE,
  interestForInterval,
  NO_SAMPLES,
  nextFundingTime,
  premiumIndexE8,
  settleFunding,
  updateMark,
} from "./funding.ts";
import { flatPosition, type PerpPosition } from "./position.ts";
import { usdt } from "./scales.ts";

const btc = requirePerp("BTCUSDT");
const pos = (lots: number, marginMode: "cross" | "isolated" = "cross", accountId = 1): PerpPosition => ({
  ...flatPosition({ accountId, symbol: "BTCUSDT", marginMode, leverage: 10 }),
  lots,
  cost: BigInt(Math.abs(lots)) * 600_000n * btc.minorPerTickLot,
  isolatedMargin: marginMode === "isolated" ? usdt(100) : 0n,
});

describe("mark price", () => {
  it("moves by the damped basis", () => {
    // mid - index = 100 ticks; ema = 100 x 2/61 = 3.2787 ticks -> mark index + 3.
    const r = updateMark(INITIAL_MARK_STATE, 500_000, 500_100);
    expect(r.state.basisMicroTicks).toBe(3_278_688n);
    expect(r.markTicks).toBe(500_003);
  });

  it("clamps the basis to 0.5 % of the index", () => {
    let s = INITIAL_MARK_STATE;
    let mark = 0;
    for (let i = 0; i < 2_000; i++) ({ state: s, markTicks: mark } = updateMark(s, 500_000, 600_000));
    expect(mark).toBe(502_500);
    ({ markTicks: mark } = updateMark(INITIAL_MARK_STATE, 500_000, 400_000));
    expect(mark).toBeLessThan(500_000);
  });
});

describe("funding", () => {
  it("samples the premium index and weights later samples more", () => {
    // (50,010 - 50,000) / 50,000 = 0.02 %.
    expect(premiumIndexE8(500_000, 500_100, 500_200)).toBe(20_000n);
    // index above the impact ask: negative premium.
    expect(premiumIndexE8(500_000, 499_800, 499_900)).toBe(-20_000n);
    let s = NO_SAMPLES;
    for (const p of [10n, 20n, 60n]) s = addPremiumSample(s, p);
    // (1 x 10 + 2 x 20 + 3 x 60) / 6 = 38.33 -> 38.
    expect(averagePremiumE8(s)).toBe(38n);
  });

  it("clamps interest - premium to +/-0.05 % and the rate to the cap", () => {
    const cap = btc.fundingCapE8;
    expect(fundingRateE8(30_000n, 10_000n, cap)).toBe(10_000n);
    expect(fundingRateE8(200_000n, 10_000n, cap)).toBe(150_000n);
    expect(fundingRateE8(500_000n, 10_000n, cap)).toBe(300_000n);
    expect(fundingRateE8(-100_000n, 10_000n, cap)).toBe(-50_000n);
    expect(fundingRateE8(-900_000n, 10_000n, cap)).toBe(-300_000n);
    expect(interestForInterval(btc, 3_600_000)).toBe(1_250n);
  });

  it("settles on 8-hour boundaries or a demo interval", () => {
    const t = Date.UTC(2026, 0, 1, 9, 30);
    expect(nextFundingTime(t)).toBe(Date.UTC(2026, 0, 1, 16));
    expect(nextFundingTime(Date.UTC(2026, 0, 1, 16))).toBe(Date.UTC(2026, 0, 2, 0));
    expect(nextFundingTime(t, 60_000)).toBe(t + 60_000);
  });

  it("longs pay shorts when positive, shorts pay longs when negative", () => {
    // 2 BTC at mark 60,000, 0.01 %: 120,000 x 0.0001 = 12 USDT.
    expect(fundingPayment(btc, pos(2_000), 600_000, 10_000n)).toBe(usdt(12));
    expect(fundingPayment(btc, pos(-2_000), 600_000, 10_000n)).toBe(-usdt(12));
    expect(fundingPayment(btc, pos(2_000), 600_000, -10_000n)).toBe(-usdt(12));
    // Dust: the payer rounds up, the receiver down. 1 lot at 1 tick = 10,000 minor x 3e-8 = 0.0003.
    expect(fundingPayment(btc, pos(1), 1, 3n)).toBe(1n);
    expect(fundingPayment(btc, pos(-1), 1, 3n)).toBe(0n);
  });

  it("settles through the wallet or isolated margin, balanced, with the insurance fund covering a cap", () => {
    const positions = [pos(2_000, "cross", 1), pos(-1_000, "isolated", 2), pos(1_000, "isolated", 3)];
    const r = settleFunding(btc, positions, 600_000, 10_000n, (p) =>
      p.accountId === 3 ? usdt(2) : usdt(1_000),
    );
    expect(r.paid).toEqual([usdt(12), -usdt(6), usdt(2)]);
    expect(r.shortfall).toBe(usdt(4));
    expect(r.entry === null ? null : checkEntry(r.entry)).toBeNull();
    const get = (a: string) => r.entry?.postings.find((p) => p.account === a)?.amount;
    expect(get("user:1:futures")).toBe(-usdt(12));
    expect(get("user:2:futures:BTCUSDT:BOTH")).toBe(usdt(6));
    expect(get("user:3:futures:BTCUSDT:BOTH")).toBe(-usdt(2));
    expect(get("system:insurance")).toBe(-usdt(4));
    // The maker holds the other side of the net 2 BTC long: it receives 12 + 6 (the whole due) - 6 = 12.
    expect(get("system:maker")).toBe(usdt(12));
    expect(r.positions[1]?.isolatedMargin).toBe(usdt(106));
    expect(r.positions[2]?.isolatedMargin).toBe(usdt(98));
  });
});
