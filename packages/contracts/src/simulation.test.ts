import { describe, expect, it } from "vitest";
import { LOCALES } from "./locales.ts";
import {
  isSimulationFlagOn,
  isSimulationPathAllowed,
  isSimulationPathKept,
  SIMULATION_EXACT_PATHS,
  SIMULATION_PREFIX_PATHS,
  simulationEntry,
  simulationRedirect,
} from "./simulation.ts";

/** Every allowed page shape: each exact path, and each prefix entry itself (or a page below a directory entry) and below it. */
const allowedPages: string[] = [
  ...SIMULATION_EXACT_PATHS,
  ...SIMULATION_PREFIX_PATHS.flatMap((p) =>
    p.endsWith("/") ? [`${p}BTCUSDT`, `${p}usdt/BTCUSDT`] : [p, `${p}/x`, `${p}/x/y`],
  ),
];

const prefixes = ["", ...LOCALES.filter((l) => !l.contentOnly).map((l) => `/${l.code}`)];

describe("isSimulationPathAllowed: allowed", () => {
  const table: string[] = [];
  for (const page of allowedPages) {
    for (const prefix of prefixes) table.push(`${prefix}${page}`);
    table.push(`${page}/`, `/bg${page}/`, `${page}?tab=1`, `${page}#top`, `/ZH-cn${page}`, `/BG${page}`);
  }
  it.each(table)("%s", (path) => {
    expect(isSimulationPathAllowed(path)).toBe(true);
  });

  it("covers every supported locale plus bg, and the defaults", () => {
    expect(prefixes).toContain("/bg");
    expect(prefixes).toContain("/zh-CN");
    expect(prefixes.length).toBe(25);
    expect(isSimulationPathAllowed("/spot/BTCUSDT")).toBe(true);
    expect(isSimulationPathAllowed("/futures/usdt/BTCUSDT")).toBe(true);
  });
});

describe("isSimulationPathAllowed: refused", () => {
  const table: Array<[string, string]> = [
    ["/", "home"],
    ["", "empty"],
    ["/ja", "locale home"],
    ["/bg/", "bg home"],
    ["/airdrops", "content page"],
    ["/telegram-apps", "content page"],
    // unsupported or malformed language prefixes
    ["/xx/fee", "unsupported prefix"],
    ["/en-US/fee", "alias is not a URL prefix"],
    ["/tr/fee", "tr serves content pages only"],
    ["/ja/ja/fee", "two prefixes"],
    ["fee", "relative"],
    // look-alikes of exact paths
    ["/fees", "exact look-alike"],
    ["/fee/x", "below an exact path"],
    ["/assets", "exact look-alike"],
    ["/asset/spotx", "exact look-alike"],
    ["/asset/spot/x", "below an exact path"],
    ["/vip", "parent of exact"],
    ["/vip/detail2", "exact look-alike"],
    ["/downloads", "exact look-alike"],
    ["/proof-of-reserve", "shorter"],
    // look-alikes of prefix entries
    ["/spot", "directory itself, no pair"],
    ["/spot/", "directory itself, no pair"],
    ["/spotx", "prefix look-alike"],
    ["/spotx/BTCUSDT", "prefix look-alike"],
    ["/futures", "directory itself"],
    ["/futuresx/usdt", "prefix look-alike"],
    ["/transaction", "segment-wise prefix: not a child"],
    ["/transactions/1", "segment-wise prefix"],
    ["/trans", "shorter than the entry"],
    ["/trade-spotter", "prefix look-alike"],
    ["/trade-assets", "prefix look-alike"],
    ["/trade", "parent"],
    ["/order", "parent"],
    ["/order/mcpx", "prefix look-alike"],
    ["/record/exchanges", "prefix look-alike"],
    ["/subaccount/setting", "parent"],
    ["/subaccount/setting/apix", "prefix look-alike"],
    ["/account/newapis", "prefix look-alike"],
    // case
    ["/FEE", "case"],
    ["/Spot/BTCUSDT", "case"],
    ["/vip/vipintroduce", "case"],
    ["/TRADE-SPOT", "case"],
    ["/ja/Asset", "case"],
    // malformed
    ["//fee", "empty segment"],
    ["/fee//", "two trailing slashes"],
    ["/spot//BTCUSDT", "empty segment"],
    ["/spot/../admin", "dot-dot"],
    ["/spot/%2E%2E/admin", "encoded dot-dot"],
    ["/spot/./BTCUSDT", "dot"],
    ["/ja/../fee", "dot-dot after prefix"],
  ];
  it.each(table)("%s (%s)", (path) => {
    expect(isSimulationPathAllowed(path)).toBe(false);
  });
});

describe("simulationRedirect", () => {
  it.each([
    ["/airdrops", "spot", "/spot/BTCUSDT"],
    ["/en/airdrops", "spot", "/spot/BTCUSDT"],
    ["/ja/airdrops?x=1", "spot", "/ja/spot/BTCUSDT"],
    ["/bg/telegram-apps", "spot", "/bg/spot/BTCUSDT"],
    ["/zh-cn/fees", "spot", "/zh-CN/spot/BTCUSDT"],
    ["/xx/fee", "spot", "/spot/BTCUSDT"],
    ["/", "futures", "/futures/usdt/BTCUSDT"],
    ["/ar", "futures", "/ar/futures/usdt/BTCUSDT"],
  ] as const)("%s (%s) -> %s", (from, market, to) => {
    expect(simulationRedirect(from, market)).toBe(to);
    expect(isSimulationPathAllowed(to)).toBe(true);
  });
});

describe("simulationEntry", () => {
  it.each([
    // anywhere else: the default page of the market asked for (spot unless told)
    ["/airdrops", undefined, "/spot/BTCUSDT"],
    ["/ja/airdrops?x=1", undefined, "/ja/spot/BTCUSDT"],
    ["/ar/fee", "futures", "/ar/futures/usdt/BTCUSDT"],
    ["/spot/ETHUSDT", undefined, "/spot/BTCUSDT"],
    ["/de/trade-spot", undefined, "/de/spot/BTCUSDT"],
    ["/asset/futures", undefined, "/spot/BTCUSDT"],
    // a futures page (either layout) opens the futures default, whatever market was asked
    ["/futures/usdt/ETHUSDT", undefined, "/futures/usdt/BTCUSDT"],
    ["/ar/futures/usdt/BTCUSDT", "spot", "/ar/futures/usdt/BTCUSDT"],
    ["/zh-cn/futures/usdt/SOLUSDT#x", undefined, "/zh-CN/futures/usdt/BTCUSDT"],
    ["/trade-swap", undefined, "/futures/usdt/BTCUSDT"],
    ["/ja/trade-swap?symbol=ETHUSDT", undefined, "/ja/futures/usdt/BTCUSDT"],
    ["/futures", undefined, "/futures/usdt/BTCUSDT"],
    // the margin screen stays where it is (query and hash dropped, prefix as written)
    ["/trade-margin", undefined, "/trade-margin"],
    ["/trade-margin/BTCUSDT", undefined, "/trade-margin/BTCUSDT"],
    ["/ar/trade-margin/ETHUSDT?x=1", "futures", "/ar/trade-margin/ETHUSDT"],
    ["/zh-cn/trade-margin/BTCUSDT", undefined, "/zh-cn/trade-margin/BTCUSDT"],
    // look-alikes and malformed paths are not those screens
    ["/trade-marginx", undefined, "/spot/BTCUSDT"],
    ["/futuresx/usdt/BTCUSDT", undefined, "/spot/BTCUSDT"],
    ["/trade-margin/../admin", undefined, "/spot/BTCUSDT"],
    ["/xx/trade-margin/BTCUSDT", undefined, "/spot/BTCUSDT"],
    ["/TRADE-MARGIN/BTCUSDT", undefined, "/spot/BTCUSDT"],
  ] as const)("%s (%s) -> %s", (from, market, to) => {
    expect(simulationEntry(from, market)).toBe(to);
    expect(isSimulationPathAllowed(to)).toBe(true);
  });
});

describe("isSimulationFlagOn", () => {
  it.each([
    [null, false],
    ["", false],
    ["0", false],
    ["false", false],
    ["1", true],
    ["true", true],
  ] as const)("%s -> %s", (value, on) => {
    expect(isSimulationFlagOn(value)).toBe(on);
  });
});

describe("isSimulationPathKept", () => {
  it("keeps the allowed pages and the ways into an account, in any trading language", () => {
    for (const path of [
      "/spot/BTCUSDT",
      "/asset",
      "/login",
      "/ar/register",
      "/forgot-password",
      "/ja/subaccount/manage",
    ])
      expect(isSimulationPathKept(path), path).toBe(true);
    // Not on the spec's list: the guard keeps them without widening what the list allows.
    expect(isSimulationPathAllowed("/login")).toBe(false);
  });

  it("sends other pages and look-alikes to the spot page", () => {
    for (const path of [
      "/",
      "/account/overview",
      "/airdrops",
      "/loginx",
      "/login/x",
      "/tr/login",
      "/subaccount",
    ])
      expect(isSimulationPathKept(path), path).toBe(false);
  });
});
