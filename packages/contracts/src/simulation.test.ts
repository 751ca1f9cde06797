import { describe, expect, it } from "vitest";
import { LOCALES } from "./locales.ts";
import {
  isSimulationFlagOn,
  isSimulationPathAllowed,
  SIMULATION_EXACT_PATHS,
  SIMULATION_PREFIX_PATHS,
  simulationRedirect,
} from "./simulation.ts";

/** Every allowed page shape: each exact path, and each prefix entry itself (or a page below a directory entry) and below it. */
const allowedPages: string[] = [
  ...SIMULATION_EXACT_PATHS,
  ...SIMULATION_PREFIX_PATHS.flatMap((p) =>
    p.endsWith("/") ? [`${p}BTCUSDT`, `${p}usdt/BTCUSDT`] : [p, `${p}/x`, `${p}/x/y`],
  ),
];

const prefixes = ["", ...LOCALES.map((l) => `/${l.code}`)];

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
    ["/tr/fee", "tr is a language id, not a site locale"],
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
