import { type MarketListing, tokenListing } from "@meridian/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test/ports.ts";
import { killUpstream, startUpstream, type Upstream } from "../../test/upstream.ts";
import { CcxtFeed, systemClock } from "./index.ts";

/**
 * A live feed lists the pairs of airdrop tokens that have listed where the exchange lists
 * them, so the airdrop pages' trade links open a live market; the others are left out
 * with one log line. The upstream (a Meridian with the demo content) lists the demo
 * airdrops' tokens (ARB, DOGS, ...), not a made-up one.
 */

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream(await freePort(), { UPSTREAM_DEMO_DATA: "true" });
}, 60_000);
afterAll(async () => {
  if (upstream !== undefined) await killUpstream(upstream);
});

const token = (base: string, name: string): MarketListing => {
  const l = tokenListing({ base, name, price: "0.5", marketCap: "500000000" });
  if (l === undefined) throw new Error(`no listing for ${base}`);
  return l;
};

describe("airdrop token pairs on a live feed", () => {
  it("mirrors those the exchange lists and names the others once", async () => {
    const infos: Array<{ obj: object; msg: string }> = [];
    const warnings: string[] = [];
    const feed = await CcxtFeed.open({
      exchange: "bitget",
      symbols: undefined,
      url: upstream.url,
      perps: [],
      extra: [token("ARB", "Arbitrum"), token("ZZZQ", "Nowhere")],
      clock: systemClock,
      log: {
        info: (obj, msg) => infos.push({ obj, msg }),
        warn: (_obj, msg) => warnings.push(msg),
      },
    });
    expect(feed.symbols).toContain("ARBUSDT");
    expect(feed.symbols).toContain("BTCUSDT");
    expect(feed.symbols).not.toContain("ZZZQUSDT");
    // The exchange's filters, the airdrop's name.
    const arb = feed.instruments.find((i) => i.spec.symbol === "ARBUSDT");
    expect(arb?.listing.name).toBe("Arbitrum");
    expect(infos.filter((i) => i.msg === "market: airdrop token pairs the exchange does not list")).toEqual([
      {
        obj: { symbols: ["ZZZQUSDT"], exchange: "bitget" },
        msg: "market: airdrop token pairs the exchange does not list",
      },
    ]);
    expect(warnings.filter((w) => w.includes("not on the exchange"))).toEqual([]);
  }, 120_000);
});
