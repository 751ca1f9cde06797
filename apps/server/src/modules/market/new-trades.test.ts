import { describe, expect, it } from "vitest";
import { NewTrades } from "./ccxt-feed.ts";

describe("NewTrades", () => {
  it("drops the trades a resubscription delivers again, keeping new ones at the same time", () => {
    const heard = new NewTrades();
    expect([heard.admit(100, "1"), heard.admit(100, "2"), heard.admit(101, "3")]).toEqual([true, true, true]);
    // The channel's snapshot after a reconnect: the recent trades again, then a new one.
    expect([
      heard.admit(100, "2"),
      heard.admit(101, "3"),
      heard.admit(101, "4"),
      heard.admit(102, "5"),
    ]).toEqual([false, false, true, true]);
  });

  it("admits trades without an id unless older than the newest heard", () => {
    const heard = new NewTrades();
    expect([heard.admit(5, undefined), heard.admit(5, undefined), heard.admit(4, undefined)]).toEqual([
      true,
      true,
      false,
    ]);
  });
});
