import type { MarketStatus } from "@meridian/contracts";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { marketApi } from "../../api/paper.ts";

/** How often the page asks for the feed's state (the server calls a book stale after 5 s). */
const POLL_MS = 2_000;

/** The feed in use and each symbol's state, asked every 2 s; null until the first answer. */
export function useFeedStatus(): MarketStatus | null {
  const [status, setStatus] = useState<MarketStatus | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      marketApi
        .status()
        .then((s) => {
          if (live) setStatus(s);
        })
        .catch(() => undefined);
    void load();
    const timer = setInterval(load, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  return status;
}

/**
 * Beside the price: "Live prices from binance", "Simulated market", or, while the
 * symbol's live feed is stale or down, "Market data unavailable for BTCUSDT".
 */
export function FeedBadge({ symbol }: { symbol: string }) {
  const { t } = useTranslation("trade");
  const status = useFeedStatus();
  if (status === null) return null;
  const state = status.symbols.find((s) => s.symbol === symbol)?.state ?? "live";
  const exchange = status.feed.startsWith("ccxt:") ? status.feed.slice("ccxt:".length) : "";
  const text =
    state !== "live"
      ? t("bar.feed.unavailable", { symbol })
      : status.live
        ? t("bar.feed.live", { exchange })
        : t("bar.feed.simulated");
  return (
    <span className="trade-feed" data-testid="feed-status" data-state={state} role="status">
      {text}
    </span>
  );
}
