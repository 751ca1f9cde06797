import { findLocale, localizePath, parseLocalePath } from "./locales.ts";

/**
 * Simulation (paper) trading rules (docs/product.md §2, 4 and 7), pure so the server, the
 * web app and tests share one reading.
 *
 * How a pathname is read (the spec leaves these open; tests pin each one):
 * - Query and hash are ignored. An optional language prefix comes first: a supported
 *   locale or `bg`, case-insensitive like every locale prefix (`/zh-cn/fee` is allowed).
 *   Any other first segment is part of the path (`/xx/fee` is refused).
 * - Paths are case-sensitive (`/FEE`, `/vip/vipintroduce` are refused).
 * - One trailing slash is insignificant (`/fee/` is `/fee`); `//`, `.` and `..` segments
 *   (also percent-encoded) are refused outright.
 * - Exact entries match only themselves.
 * - "The path or anything below it" is read by segments: `/transac` allows `/transac`
 *   and `/transac/...` but not `/transaction`; `/trade-spot` does not allow
 *   `/trade-spotter`. An entry written with a trailing slash (`/spot/`, `/futures/`)
 *   names a directory of pages: only paths below it match (`/spot/BTCUSDT`); the bare
 *   `/spot` has no page and is refused (the user lands on the default spot page).
 */

/** Local storage key of the flag (docs/product.md §3). */
export const SIMULATION_STORAGE_KEY = "simulation-trade";
/** Request header carried while the flag is on (value "1"). */
export const SIMULATION_HEADER = "paptrading";

export const SIMULATION_EXACT_PATHS: readonly string[] = [
  "/fee",
  "/vip/detail",
  "/vip/vipIntroduce",
  "/asset",
  "/asset/spot",
  "/asset/margin",
  "/asset/futures",
  "/modifyverification",
  "/download",
  "/proof-of-reserves",
  "/protection-fund",
];

export const SIMULATION_PREFIX_PATHS: readonly string[] = [
  "/account/newapi",
  "/spot/",
  "/futures/",
  "/transac",
  "/order/marginOrderInfo",
  "/order/mcp",
  "/record/exchange",
  "/record/margin",
  "/record/mcp",
  "/subaccount/setting/antiphishing",
  "/subaccount/setting/devices",
  "/subaccount/setting/history",
  "/subaccount/setting/api",
  "/trade-spot",
  "/trade-margin",
  "/trade-swap",
  "/trade-info",
  "/trade-asset-order",
  "/trade-asset",
];

export const DEFAULT_SIMULATION_SPOT_PATH = "/spot/BTCUSDT";
export const DEFAULT_SIMULATION_FUTURES_PATH = "/futures/usdt/BTCUSDT";

export type SimulationMarket = "spot" | "futures";

const exact = new Set(SIMULATION_EXACT_PATHS);

function stripQueryAndHash(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

function hasDotOrEmptySegment(path: string): boolean {
  const segments = path.split("/").slice(1);
  return segments.some((s, i) => {
    const decoded = s.replace(/%2e/gi, ".");
    if (decoded === "." || decoded === "..") return true;
    // An empty segment is only allowed as the single trailing slash.
    return s === "" && i !== segments.length - 1;
  });
}

/** The path after the optional language prefix, or undefined when it is malformed. */
function pagePath(pathname: string): string | undefined {
  const path = stripQueryAndHash(pathname);
  if (!path.startsWith("/") || hasDotOrEmptySegment(path)) return undefined;
  const { locale, rest } = parseLocalePath(path);
  // Content-only languages (nl, sv, th, tr) have no trading pages.
  if (findLocale(locale)?.contentOnly) return undefined;
  return rest.length > 1 && rest.endsWith("/") ? rest.slice(0, -1) : rest;
}

/** True when simulation mode may stay on at `pathname` (see the module comment for the reading). */
export function isSimulationPathAllowed(pathname: string): boolean {
  const path = pagePath(pathname);
  if (path === undefined) return false;
  if (exact.has(path)) return true;
  for (const entry of SIMULATION_PREFIX_PATHS) {
    if (entry.endsWith("/")) {
      if (path.startsWith(entry) && path.length > entry.length) return true;
    } else if (path === entry || path.startsWith(`${entry}/`)) {
      return true;
    }
  }
  return false;
}

/**
 * Pages the guard lets through with the flag on although the spec's list does not name
 * them: the ways into an account (log in, sign up, password reset) and the sub-account
 * switch. Sent from them to the spot page, a logged-out user in simulation mode could
 * only log in, and a user could only switch into a sub-account, after leaving the mode,
 * so the flag the spec keeps in local storage did not survive a login or a switch. They
 * show no market or paper data, so the flag has nothing to change on them
 * (docs/decisions.md).
 */
export const SIMULATION_PASS_THROUGH_PATHS: readonly string[] = [
  "/login",
  "/register",
  "/forgot-password",
  "/subaccount/manage",
];

/** True when the guard leaves `pathname` alone with the flag on: an allowed page or a pass-through one. */
export function isSimulationPathKept(pathname: string): boolean {
  if (isSimulationPathAllowed(pathname)) return true;
  const path = pagePath(pathname);
  return path !== undefined && SIMULATION_PASS_THROUGH_PATHS.includes(path);
}

/** The default spot (or futures) page in the language of `pathname` (English unprefixed). */
export function simulationRedirect(pathname: string, market: SimulationMarket = "spot"): string {
  const { locale } = parseLocalePath(stripQueryAndHash(pathname) || "/");
  return localizePath(
    locale,
    market === "spot" ? DEFAULT_SIMULATION_SPOT_PATH : DEFAULT_SIMULATION_FUTURES_PATH,
  );
}

/** Pages of the futures screen (either layout): entering simulation there opens the futures default. */
const FUTURES_PAGE_ENTRIES: readonly string[] = ["/futures", "/trade-swap"];
/** Pages on the allowed list that entering simulation keeps the user on (the margin screen). */
const STAY_PAGE_ENTRIES: readonly string[] = ["/trade-margin"];

const under = (path: string, entry: string) => path === entry || path.startsWith(`${entry}/`);

/**
 * Where entering simulation mode goes from `pathname` (docs/product.md §4: the
 * language-prefixed spot or futures page), read like the rest of this module:
 * - the margin screen (`/trade-margin...`, on the allowed list) stays where it is: the
 *   answer is `pathname` itself without query or hash;
 * - a futures page (`/futures/...`, `/trade-swap...`) opens the default futures page;
 * - anywhere else opens the default page of `market` (spot unless told).
 * The language prefix is kept as written; a malformed path opens the default page.
 */
export function simulationEntry(pathname: string, market: SimulationMarket = "spot"): string {
  const path = pagePath(pathname);
  if (path !== undefined) {
    if (STAY_PAGE_ENTRIES.some((e) => under(path, e)) && isSimulationPathAllowed(pathname))
      return stripQueryAndHash(pathname);
    if (FUTURES_PAGE_ENTRIES.some((e) => under(path, e))) return simulationRedirect(pathname, "futures");
  }
  return simulationRedirect(pathname, market);
}

/** Whether a stored flag value means "on": anything but absent, empty, "0" or "false". */
export function isSimulationFlagOn(value: string | null | undefined): boolean {
  return value !== null && value !== undefined && value !== "" && value !== "0" && value !== "false";
}
