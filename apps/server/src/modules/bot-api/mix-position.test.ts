import { describe, expect, it } from "vitest";
import { positionTimes } from "./mix.ts";

const fill = (side: "BUY" | "SELL", quantity: string, time: number, symbol = "BTCUSDT") =>
  ({ symbol, positionSide: "BOTH", side, quantity, time }) as const;

describe("positionTimes", () => {
  it("opens at the fill the quantity walks back to zero from; updates at the newest", () => {
    // Newest first: a long of 0.030 built by 0.010 + 0.020 after an earlier round trip.
    const trades = [
      fill("BUY", "0.020", 50),
      fill("BUY", "0.010", 40),
      fill("SELL", "0.005", 30),
      fill("BUY", "0.005", 20),
      fill("BUY", "1", 10, "ETHUSDT"),
    ];
    const p = { symbol: "BTCUSDT", positionSide: "BOTH", quantity: "0.030" } as const;
    expect(positionTimes(p, trades)).toEqual({ cTime: "40", uTime: "50" });
  });

  it("opens at a fill that turned a short into a long", () => {
    const trades = [fill("SELL", "0.001", 30), fill("BUY", "0.003", 20), fill("SELL", "0.001", 10)];
    const p = { symbol: "BTCUSDT", positionSide: "BOTH", quantity: "0.001" } as const;
    expect(positionTimes(p, trades)).toEqual({ cTime: "20", uTime: "30" });
  });

  it("has no times without fills", () => {
    const p = { symbol: "BTCUSDT", positionSide: "BOTH", quantity: "0.001" } as const;
    expect(positionTimes(p, [])).toEqual({ cTime: "", uTime: "" });
  });
});
