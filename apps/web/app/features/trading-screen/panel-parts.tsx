import type { OrderSideValue } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSimulation } from "../../lib/simulation-provider.tsx";
import type { EnterSimulationButtonProps } from "../../ui/enter-simulation-button.tsx";
import { Loading } from "../../ui/loading.tsx";
import { LoadError } from "../shell/load-error.tsx";
import { antdIsland } from "./antd-island.tsx";

/** The simulation button (antd): loaded when a logged-in user's screen shows it. */
export const EnterSimulationButton = antdIsland<EnterSimulationButtonProps>(() =>
  import("../../ui/enter-simulation-button.tsx").then((m) => m.EnterSimulationButton),
);

/** Who is looking: a visitor, a user outside simulation mode, or a paper trader. */
export type TradeAccess = "guest" | "needs-sim" | "ready";

/** The trading screens' access: paper trading needs a login and simulation mode. */
export function useTradeAccess(loggedIn: boolean): TradeAccess {
  const sim = useSimulation();
  return !loggedIn ? "guest" : sim.active ? "ready" : "needs-sim";
}

/** The ticker bar's simulation end: badge and exit while trading on paper, enter for a user outside it. */
export function SimulationBarControls({ access }: { access: TradeAccess }) {
  const { t } = useTranslation("trade");
  if (access === "ready")
    return (
      <>
        <span className="trade-sim-badge" data-testid="simulation-badge">
          {t("bar.simulation")}
        </span>
        <EnterSimulationButton size="small" data-testid="exit-simulation" />
      </>
    );
  if (access === "needs-sim")
    return <EnterSimulationButton type="primary" size="small" data-testid="bar-enter-simulation" />;
  return null;
}

/** Shown instead of an order form's submit button: log in, or enter simulation mode. */
export function TradeGate({ access, locale }: { access: TradeAccess; locale: string }) {
  const { t } = useTranslation("trade");
  if (access === "guest")
    return (
      <div className="trade-gate" data-testid="trade-login-prompt">
        <a className="trade-gate-primary" href={localizePath(locale, "/login")}>
          {t("gate.login")}
        </a>
        <span>
          {t("gate.or")} <a href={localizePath(locale, "/register")}>{t("gate.register")}</a>
        </span>
      </div>
    );
  if (access === "needs-sim")
    return (
      <div className="trade-gate" data-testid="trade-sim-prompt">
        <p>{t("gate.simulationOnly")}</p>
        <EnterSimulationButton type="primary" block data-testid="enter-simulation" />
      </div>
    );
  return null;
}

/**
 * The account tables under a trading screen: a login or simulation prompt, else the
 * error lines and the tables. Until the first read of the lists has answered (`loading`)
 * a placeholder stands in for them, so "No open orders" is never said of lists not yet
 * read; a failed read shows `LoadError` with its retry.
 */
export function AccountTablesBody({
  access,
  error,
  loading = false,
  loadError = null,
  onRetry,
  children,
}: {
  access: TradeAccess;
  error: string | null | undefined;
  loading?: boolean;
  loadError?: unknown;
  onRetry?: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation("trade");
  if (access !== "ready")
    return (
      <p className="trade-empty trade-orders-gate">
        {t(access === "guest" ? "orders.loginFirst" : "orders.simFirst")}
      </p>
    );
  return (
    <>
      {error ? (
        <p className="trade-notice is-error" role="alert">
          {error}
        </p>
      ) : null}
      {onRetry ? <LoadError error={loadError} onRetry={onRetry} /> : null}
      {loading && (loadError === null || loadError === undefined) ? (
        <div className="trade-empty" data-testid="account-tables-loading">
          <Loading />
        </div>
      ) : (
        children
      )}
    </>
  );
}

/** A row of tabs on the trade screens' style (`trade-tabs`). */
export function TabStrip<K extends string>({
  tabs,
  active,
  onChange,
  label,
  testIdPrefix,
  className,
}: {
  tabs: ReadonlyArray<readonly [K, string]>;
  active: K;
  onChange: (key: K) => void;
  label?: string | undefined;
  testIdPrefix: string;
  /** Extra class beside `trade-tabs`. */
  className?: string;
}) {
  return (
    <div className={className ? `trade-tabs ${className}` : "trade-tabs"} role="tablist" aria-label={label}>
      {tabs.map(([key, text]) => (
        <button
          key={key}
          type="button"
          role="tab"
          aria-selected={key === active}
          className={key === active ? "is-active" : undefined}
          onClick={() => onChange(key)}
          data-testid={`${testIdPrefix}-${key.toLowerCase()}`}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

/** Buy / sell switch of the phone order form (one side shown at a time). */
export function SideSwitch({
  side,
  onChange,
}: {
  side: OrderSideValue;
  onChange: (side: OrderSideValue) => void;
}) {
  const { t } = useTranslation("trade");
  return (
    <div className="trade-side-switch" role="tablist" aria-label={t("form.side")}>
      {(["BUY", "SELL"] as const).map((s) => (
        <button
          key={s}
          type="button"
          role="tab"
          aria-selected={s === side}
          className={`is-${s.toLowerCase()}${s === side ? " is-active" : ""}`}
          onClick={() => onChange(s)}
          data-testid={`side-${s.toLowerCase()}`}
        >
          {t(s === "BUY" ? "form.buyShort" : "form.sellShort")}
        </button>
      ))}
    </div>
  );
}

/** The buy and sell buttons under a phone trading screen: each opens the form on its side. */
export function PhoneSideButtons({ onPick }: { onPick: (side: OrderSideValue) => void }) {
  const { t } = useTranslation("trade");
  return (
    <>
      <button type="button" className="trade-submit is-buy" onClick={() => onPick("BUY")}>
        {t("form.buyShort")}
      </button>
      <button type="button" className="trade-submit is-sell" onClick={() => onPick("SELL")}>
        {t("form.sellShort")}
      </button>
    </>
  );
}
