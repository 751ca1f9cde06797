import type { MarketSymbolInfo } from "@meridian/contracts";
import { compare, formatDecimal } from "@meridian/domain";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type MarketStore, useTickerStreams, useTickers } from "./use-market.ts";

interface SymbolSwitcherProps {
  current: MarketSymbolInfo;
  symbols: readonly MarketSymbolInfo[];
  market: MarketStore;
  hrefFor: (symbol: string) => string;
  /** Under the pair: the coin's name, or the contract type on a derivatives screen ("Perpetual"). */
  subtitle?: string | undefined;
}

/** Every market symbol with its last price and 24 h change, searchable; a link per pair. */
export function SymbolSwitcher({ current, symbols, market, hrefFor, subtitle }: SymbolSwitcherProps) {
  const { t } = useTranslation("trade");
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState("");
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const onDown = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const needle = q.trim().toUpperCase();
  const list = symbols.filter(
    (s) => needle === "" || s.symbol.includes(needle) || s.name.toUpperCase().includes(needle),
  );

  return (
    <div className="trade-switcher" ref={root}>
      <button
        type="button"
        className="trade-switcher-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        data-testid="symbol-switcher"
      >
        <strong>
          {current.base}/{current.quote}
        </strong>
        <small>{subtitle ?? current.name}</small>
        <span aria-hidden="true" className="trade-caret" />
      </button>
      {open ? (
        <div className="trade-switcher-panel" id={panelId} data-testid="symbol-list">
          <input
            className="trade-switcher-search"
            type="search"
            value={q}
            placeholder={t("switcher.search")}
            aria-label={t("switcher.search")}
            onChange={(e) => setQ(e.target.value)}
            // biome-ignore lint/a11y/noAutofocus: the panel opens to search; focus belongs in its field.
            autoFocus
          />
          <div className="trade-switcher-cols" aria-hidden="true">
            <span>{t("switcher.pair")}</span>
            <span>{t("switcher.last")}</span>
            <span>{t("switcher.change")}</span>
          </div>
          <SymbolRows
            symbols={symbols}
            list={list}
            current={current.symbol}
            market={market}
            hrefFor={hrefFor}
            onPick={() => setOpen(false)}
          />
        </div>
      ) : null}
    </div>
  );
}

/** The open list's rows: the only part of the screen that follows every symbol's ticker (while open). */
function SymbolRows({
  symbols,
  list,
  current,
  market,
  hrefFor,
  onPick,
}: {
  symbols: readonly MarketSymbolInfo[];
  list: readonly MarketSymbolInfo[];
  current: string;
  market: MarketStore;
  hrefFor: (symbol: string) => string;
  onPick: () => void;
}) {
  const { t } = useTranslation("trade");
  useTickerStreams(
    market,
    symbols
      .map((s) => s.symbol)
      .filter((s) => s !== current)
      .join(","),
  );
  const tickers = useTickers(market);
  return (
    <ul>
      {list.map((s) => {
        const tk = tickers[s.symbol];
        const up = tk ? compare(tk.priceChangePercent, "0") >= 0 : true;
        return (
          <li key={s.symbol}>
            <Link
              to={hrefFor(s.symbol)}
              onClick={onPick}
              aria-current={s.symbol === current ? "page" : undefined}
              data-testid={`symbol-${s.symbol}`}
            >
              <span>
                <strong>{s.base}</strong>/{s.quote}
              </span>
              <span>{tk ? formatDecimal(tk.lastPrice, s.priceDecimals) : "--"}</span>
              <span className={up ? "is-up" : "is-down"}>
                <bdi dir="ltr">
                  {tk ? `${up ? "+" : ""}${formatDecimal(tk.priceChangePercent, 2)}%` : "--"}
                </bdi>
              </span>
            </Link>
          </li>
        );
      })}
      {list.length === 0 ? <li className="trade-empty">{t("switcher.none")}</li> : null}
    </ul>
  );
}
