import type { FuturesAccount, MarginAccountView, Ticker } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { estimatedBalance, futuresEquity, futuresWalletsValue, marginNet } from "./account-values.ts";

const futures = (over: Partial<FuturesAccount>): FuturesAccount => ({
  family: "usdt",
  marginCoin: "USDT",
  wallet: "0.00000000",
  unrealisedPnl: "0.00000000",
  marginBalance: "0.00000000",
  available: "0.00000000",
  maxTransferOut: "0.00000000",
  maintenanceMargin: "0.00000000",
  marginRatio: null,
  isolatedMargin: "0.00000000",
  dualSidePosition: false,
  ...over,
});

const margin = (netAsset: string, symbol: string | null = null): MarginAccountView => ({
  mode: symbol === null ? "cross" : "isolated",
  symbol,
  leverage: symbol === null ? 3 : 10,
  marginLevel: null,
  status: "NORMAL",
  totalAsset: "0",
  totalDebt: "0",
  netAsset,
  liquidationPrice: null,
  assets: [],
});

describe("estimated balance", () => {
  it("values coin-M wallets at their coin's USDT price, beside the USDT-M wallet", () => {
    const ticker = (symbol: string, lastPrice: string) => ({ symbol, lastPrice }) as Ticker;
    const wallets = [
      futures({ wallet: "1000.00000000" }),
      // 0.1 BTC plus 0.002 unrealised at 50,000: 5,100 USDT.
      futures({ family: "coin", marginCoin: "BTC", wallet: "0.10000000", unrealisedPnl: "0.00200000" }),
      // No LTCUSDT price: left out rather than counted at zero or as coins.
      futures({ family: "coin", marginCoin: "LTC", wallet: "3.00000000" }),
    ];
    expect(futuresWalletsValue(wallets, [ticker("BTCUSDT", "50000"), ticker("ETHUSDT", "3000")])).toBe(
      "6100",
    );
  });

  it("values futures with the isolated margin and the unrealised PnL of every position", () => {
    // Cross wallet 9,000, 250 in an isolated position; cross +40 and isolated -15 unrealised.
    const a = futures({
      wallet: "9000.00000000",
      isolatedMargin: "250.00000000",
      unrealisedPnl: "25.00000000",
      marginBalance: "9040.00000000",
    });
    expect(futuresEquity(a)).toBe("9275");
    expect(futuresEquity(futures({ wallet: "100", unrealisedPnl: "-120.5" }))).toBe("-20.5");
  });

  it("nets cross and every isolated margin account of their debt", () => {
    expect(marginNet(margin("1200.5"), [margin("300", "BTCUSDT"), margin("-12.25", "ETHUSDT")])).toBe(
      "1488.25",
    );
    expect(marginNet(margin("0"), [])).toBe("0");
  });

  it("sums spot, futures and margin, leaving out wallets not loaded", () => {
    const total = estimatedBalance({ spot: "50000.12", futures: "9275", margin: "1488.25" });
    expect(total).toBe("60763.37");
    expect(estimatedBalance({ spot: "50000.12", futures: null, margin: "-10" })).toBe("49990.12");
    expect(estimatedBalance({ spot: "0", futures: null, margin: null })).toBe("0");
  });
});
