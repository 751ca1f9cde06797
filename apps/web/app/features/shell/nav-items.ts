import type { NavKey } from "./types.ts";

export interface NavItem {
  key: NavKey;
  /** Unprefixed path; localise with `localizePath`. */
  path: string;
  /** Key in the shell namespace. */
  label: string;
}

/** Header order. Simulation trading enters paper mode on the default spot page. */
export const NAV_ITEMS: readonly NavItem[] = [
  { key: "airdrops", path: "/airdrops", label: "nav.airdrops" },
  { key: "apps", path: "/telegram-apps", label: "nav.apps" },
  { key: "spot", path: "/spot/BTCUSDT", label: "nav.spot" },
  { key: "futures", path: "/futures/usdt/BTCUSDT", label: "nav.futures" },
  { key: "margin", path: "/trade-margin/BTCUSDT", label: "nav.margin" },
  { key: "simulation", path: "/spot/BTCUSDT", label: "nav.simulation" },
  { key: "fees", path: "/fee", label: "nav.fees" },
  { key: "vip", path: "/vip/vipIntroduce", label: "nav.vip" },
  { key: "assets", path: "/asset", label: "nav.assets" },
];

/** Linked from the footer only (not a header section). */
const FOOTER_ONLY_ITEMS: readonly NavItem[] = [
  { key: "reserves", path: "/proof-of-reserves", label: "nav.reserves" },
];

export const FOOTER_SECTIONS: ReadonlyArray<{ title: string; items: readonly NavKey[] }> = [
  { title: "footer.products", items: ["spot", "futures", "margin", "simulation"] },
  { title: "footer.discover", items: ["airdrops", "apps"] },
  { title: "footer.account", items: ["assets", "fees", "vip", "reserves"] },
];

export function navItem(key: NavKey): NavItem | undefined {
  return NAV_ITEMS.find((item) => item.key === key) ?? FOOTER_ONLY_ITEMS.find((item) => item.key === key);
}

/** The section a path belongs to, for `aria-current`. */
export function activeNavKey(path: string | undefined): NavKey | undefined {
  if (!path) return undefined;
  const first = path.split("/")[1] ?? "";
  const byFirst: Record<string, NavKey> = {
    airdrops: "airdrops",
    "telegram-apps": "apps",
    spot: "spot",
    futures: "futures",
    "trade-margin": "margin",
    fee: "fees",
    vip: "vip",
    asset: "assets",
  };
  return byFirst[first];
}
