import { describe, expect, it } from "vitest";
import { requirePerp } from "./contracts.ts";
import { bankruptcyPrice, liquidationPrice } from "./liquidation-price.ts";
import { isolatedStatus, type PerpPosition } from "./position.ts";
import { usdt } from "./scales.ts";

const btc = requirePerp("BTCUSDT"); // tick 0.1 -> prices below are in ticks of 0.1
const eth = requirePerp("ETHUSDT"); // tick 0.01

/**
 * Worked cases of Binance's formula
 *   LP = (W - TMM1 + UPNL1 + cum - s x Q x EP) / (Q x MMR - s x Q)
 * (hedge mode sums cum, s x Q x EP and Q x MMR - s x Q over the legs).
 */
describe("liquidation price, hand-computed", () => {
  it("1. isolated long BTC, 1 BTC at 50,000, 20x (margin 2,500)", () => {
    // bracket 1 (notional < 50,000): MMR 0.4 %, cum 0.
    // LP = (2,500 + 0 - 50,000) / (0.004 - 1) = -47,500 / -0.996 = 47,690.7630...
    // a long's price rounds up to the tick: 47,690.8.
    const lp = liquidationPrice({
      contract: btc,
      legs: [{ side: 1, lots: 1_000, cost: usdt(50_000) }],
      walletBalance: usdt(2_500),
      markTicks: 500_000,
    });
    expect(lp).toBe(476_908);
  });

  it("2. isolated short BTC, 1 BTC at 50,000, 20x: the root of bracket 1 lies in bracket 2", () => {
    // bracket 1: (2,500 + 0 + 50,000) / (0.004 + 1) = 52,290.84 -> notional 52,290 >= 50,000: not bracket 1.
    // bracket 2 (0.5 %, cum 50): (2,500 + 50 + 50,000) / (0.005 + 1) = 52,550 / 1.005 = 52,288.5572...
    // a short's price rounds down: 52,288.5.
    const lp = liquidationPrice({
      contract: btc,
      legs: [{ side: -1, lots: 1_000, cost: usdt(50_000) }],
      walletBalance: usdt(2_500),
      markTicks: 500_000,
    });
    expect(lp).toBe(522_885);
  });

  it("3. isolated long ETH, 10 ETH at 3,000, 10x (margin 3,000), bracket 2", () => {
    // notional ~27,000: bracket 2 (0.65 %, cum = 10,000 x (0.65 % - 0.5 %) = 15).
    // LP = (3,000 + 15 - 30,000) / (10 x 0.0065 - 10) = -26,985 / -9.935 = 2,716.1550... -> 2,716.16.
    const lp = liquidationPrice({
      contract: eth,
      legs: [{ side: 1, lots: 10_000, cost: usdt(30_000) }],
      walletBalance: usdt(3_000),
      markTicks: 300_000,
    });
    expect(lp).toBe(271_616);
  });

  it("4. cross long BTC alone, wallet 10,000", () => {
    // LP = (10,000 - 0 + 0 + 0 - 50,000) / (0.004 - 1) = 40,160.6425... -> 40,160.7.
    const lp = liquidationPrice({
      contract: btc,
      legs: [{ side: 1, lots: 1_000, cost: usdt(50_000) }],
      walletBalance: usdt(10_000),
      markTicks: 500_000,
    });
    expect(lp).toBe(401_607);
  });

  it("5. cross short ETH with another cross position (TMM1, UPNL1)", () => {
    // Other: long 0.1 BTC at 50,000, mark 49,000: UPNL1 = -100, TMM1 = 4,900 x 0.4 % = 19.6.
    // ETH short 5 at 3,000 (C = 15,000), notional ~19,800: bracket 2 (0.65 %, cum 15).
    // LP = (5,000 - 19.6 - 100 + 15 + 15,000) / (5 x 0.0065 + 5) = 19,895.4 / 5.0325 = 3,953.3830... -> 3,953.38.
    const lp = liquidationPrice({
      contract: eth,
      legs: [{ side: -1, lots: 5_000, cost: usdt(15_000) }],
      walletBalance: usdt(5_000),
      otherMaintenance: 1_960_000_000n,
      otherUnrealised: -usdt(100),
      markTicks: 300_000,
    });
    expect(lp).toBe(395_338);
  });

  it("6. cross hedge mode, long 1 BTC at 50,000 and short 0.5 BTC at 52,000, wallet 3,000", () => {
    // Both legs in bracket 1 (0.4 %, cum 0).
    // LP = (3,000 + 0 + 0 - 50,000 + 26,000) / (1 x 0.004 + 0.5 x 0.004 - 1 + 0.5) = -21,000 / -0.494
    //    = 42,510.1214... -> 42,510.2.
    const lp = liquidationPrice({
      contract: btc,
      legs: [
        { side: 1, lots: 1_000, cost: usdt(50_000) },
        { side: -1, lots: 500, cost: usdt(26_000) },
      ],
      walletBalance: usdt(3_000),
      markTicks: 500_000,
    });
    expect(lp).toBe(425_102);
  });

  it("7. isolated long at 1x has no liquidation price", () => {
    // LP = (50,000 - 50,000) / (0.004 - 1) = 0: nothing above zero liquidates.
    const lp = liquidationPrice({
      contract: btc,
      legs: [{ side: 1, lots: 1_000, cost: usdt(50_000) }],
      walletBalance: usdt(50_000),
      markTicks: 500_000,
    });
    expect(lp).toBeNull();
  });

  it("8. isolated long 30 BTC at 50,000, 20x (margin 75,000), bracket 4", () => {
    // notional ~1.44 M: bracket 4 (2.5 %, cum 16,300).
    // LP = (75,000 + 16,300 - 1,500,000) / (30 x 0.025 - 30) = -1,408,700 / -29.25 = 48,160.6837... -> 48,160.7.
    const lp = liquidationPrice({
      contract: btc,
      legs: [{ side: 1, lots: 30_000, cost: usdt(1_500_000) }],
      walletBalance: usdt(75_000),
      markTicks: 500_000,
    });
    expect(lp).toBe(481_607);
  });

  it("bankruptcy price: isolated long 1 BTC at 50,000 with 2,500 margin -> 47,500; short -> 52,500", () => {
    const legs = (side: 1 | -1) => [{ side, lots: 1_000, cost: usdt(50_000) }];
    expect(
      bankruptcyPrice({ contract: btc, legs: legs(1), walletBalance: usdt(2_500), markTicks: 500_000 }),
    ).toBe(475_000);
    expect(
      bankruptcyPrice({ contract: btc, legs: legs(-1), walletBalance: usdt(2_500), markTicks: 500_000 }),
    ).toBe(525_000);
  });

  it("agrees with the liquidation rule one tick either side", () => {
    const long: PerpPosition = {
      accountId: 1,
      symbol: "BTCUSDT",
      positionSide: "BOTH",
      marginMode: "isolated",
      leverage: 20,
      lots: 1_000,
      cost: usdt(50_000),
      isolatedMargin: usdt(2_500),
    };
    expect(isolatedStatus(btc, long, 476_908).breached).toBe(false);
    expect(isolatedStatus(btc, long, 476_907).breached).toBe(true);
    const short: PerpPosition = { ...long, lots: -1_000 };
    expect(isolatedStatus(btc, short, 522_885).breached).toBe(false);
    expect(isolatedStatus(btc, short, 522_886).breached).toBe(true);
  });
});
