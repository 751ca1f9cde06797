import { describe, expect, it } from "vitest";
import { statementLines, walletOfTail } from "./statement.ts";

const e = (kind: string, postings: [string, string, bigint][]) => ({
  id: 7,
  kind,
  time: 1000,
  postings: postings.map(([account, asset, amount]) => ({ account, asset, amount })),
});

describe("statementLines", () => {
  it("splits a spot trade into the trade and its fee", () => {
    const lines = statementLines(
      3,
      e("trade", [
        ["user:3:available", "BTC", 100n],
        ["user:3:held", "USDT", -1010n],
        ["user:3:available", "USDT", 0n + 5n],
        ["system:maker", "BTC", -100n],
        ["system:maker", "USDT", 1000n],
        ["system:fees", "USDT", 5n],
      ]),
    );
    expect(lines.map((l) => [l.type, l.wallet, l.asset, l.amount])).toEqual([
      ["trade", "spot", "BTC", 100n],
      ["fee", "spot", "USDT", -5n],
      ["trade", "spot", "USDT", -1000n],
    ]);
  });

  it("reads a futures trade as realised PnL and fee; opening trades show the fee only", () => {
    const close = statementLines(
      3,
      e("futures-trade", [
        ["user:3:futures", "USDT", 190n + 500n],
        ["user:3:futures:BTCUSDT:BOTH", "USDT", -500n],
        ["system:maker", "USDT", -200n],
        ["system:fees", "USDT", 10n],
      ]),
    );
    expect(close.map((l) => [l.type, l.wallet, l.amount])).toEqual([
      ["fee", "futures", -10n],
      ["realised_pnl", "futures", 200n],
    ]);
    const open = statementLines(
      3,
      e("futures-trade", [
        ["user:3:futures", "USDT", -4n],
        ["system:fees", "USDT", 4n],
      ]),
    );
    expect(open.map((l) => l.type)).toEqual(["fee"]);
  });

  it("shows both sides of a transfer, drops holds, keeps unknown kinds", () => {
    expect(
      statementLines(
        3,
        e("transfer", [
          ["user:3:available", "USDT", -50n],
          ["user:3:margin:ETHUSDT", "USDT", 50n],
        ]),
      ).map((l) => [l.wallet, l.symbol, l.amount]),
    ).toEqual([
      ["spot", null, -50n],
      ["isolated", "ETHUSDT", 50n],
    ]);
    expect(
      statementLines(
        3,
        e("hold", [
          ["user:3:available", "USDT", -5n],
          ["user:3:held", "USDT", 5n],
        ]),
      ),
    ).toEqual([]);
    expect(
      statementLines(
        3,
        e("sub-transfer", [
          ["user:3:available", "USDT", -5n],
          ["user:9:available", "USDT", 5n],
        ]),
      ),
    ).toMatchObject([{ type: "sub-transfer", wallet: "spot", amount: -5n }]);
    expect(
      statementLines(
        9,
        e("activate", [
          ["user:9:available", "USDT", 5n],
          ["system:mint", "USDT", -5n],
        ]),
      ),
    ).toMatchObject([{ type: "topup" }]);
  });

  it("leaves the fee inside each line when two users traded with each other", () => {
    const lines = statementLines(
      3,
      e("trade", [
        ["user:3:available", "BTC", 100n],
        ["user:3:held", "USDT", -1010n],
        ["user:4:held", "BTC", -100n],
        ["user:4:available", "USDT", 990n],
        ["system:fees", "USDT", 20n],
      ]),
    );
    expect(lines.map((l) => [l.type, l.asset, l.amount])).toEqual([
      ["trade", "BTC", 100n],
      ["trade", "USDT", -1010n],
    ]);
  });

  it("names wallets", () => {
    expect(walletOfTail("margin:held")).toEqual({ wallet: "cross", symbol: null });
    expect(walletOfTail("margin:BTCUSDT:held")).toEqual({ wallet: "isolated", symbol: "BTCUSDT" });
    expect(walletOfTail("sub:5")).toEqual({ wallet: "sub", symbol: null });
  });
});
