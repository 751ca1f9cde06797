import { DEFAULT_SIMULATION_FUTURES_PATH, DEFAULT_SIMULATION_SPOT_PATH } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { redirect } from "react-router";
import { DEFAULT_COIN_FUTURES_PATH } from "../features/futures/families.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import type { Route } from "./+types/default-page";

/**
 * Bare /spot, /futures (and /futures/usdt) and /margin have no page of their own: they go
 * to the default pages (docs/product.md §2: /spot/BTCUSDT, /futures/usdt/BTCUSDT; margin's
 * default is /trade-margin, BTCUSDT), keeping the language prefix and the query. Bare
 * /futures/coin goes to the coin-margined family's first contract, /futures/coin/BTCUSD.
 */
export function loader({ params, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const segments = url.pathname.split("/").filter(Boolean);
  const section = segments.find((s) => s === "spot" || s === "futures" || s === "margin");
  const coin = section === "futures" && segments.at(-1) === "coin";
  const target =
    section === "futures"
      ? coin
        ? DEFAULT_COIN_FUTURES_PATH
        : DEFAULT_SIMULATION_FUTURES_PATH
      : section === "margin"
        ? "/trade-margin"
        : DEFAULT_SIMULATION_SPOT_PATH;
  throw redirect(`${localizePath(localeFromParams(params), target)}${url.search}`, 302);
}

export default function DefaultPage() {
  return null;
}
