import type { MarginAccountView } from "@meridian/contracts";
import { divDown, formatDecimal } from "@meridian/domain";
import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";

/** Shown for an account without debt (Binance shows 999 too). */
const NO_DEBT_LEVEL = "999";

/** The level's risk as a gauge fill in percent: debt / assets, so 1.1 (liquidation) is ~91 %. */
export function riskPercent(level: string | null): number {
  if (level === null) return 0;
  const share = Number(divDown("100", level, 2));
  return Number.isFinite(share) ? Math.min(100, Math.max(0, share)) : 0;
}

/** Margin level with a risk gauge coloured by status (normal, margin call, liquidation).
 * The server's level keeps six decimals; two are shown, cut down (a level never looks safer than it is). */
export function MarginLevel({ account }: { account: MarginAccountView | null }) {
  const { t } = useTranslation("margin");
  const level = account?.marginLevel ?? null;
  const status = account?.status ?? "NORMAL";
  return (
    <div className={`margin-level is-${status.toLowerCase()}`} data-testid="margin-level">
      <div className="margin-level-head">
        <span>{t("marginLevel")}</span>
        <strong data-testid="margin-level-value">
          <bdi dir="ltr">{account ? (level === null ? NO_DEBT_LEVEL : formatDecimal(level, 2)) : "--"}</bdi>
        </strong>
        <span className="margin-level-status" data-testid="margin-level-status">
          {t(`status.${status}`)}
        </span>
      </div>
      <div
        className="margin-gauge"
        aria-hidden="true"
        data-risk={riskPercent(level)}
        style={{ "--risk": `${riskPercent(level)}%` } as CSSProperties}
      />
    </div>
  );
}

/** Totals of an account in USDT (asset, debt, net), its leverage and, isolated, the liquidation price. */
export function MarginTotals({ account }: { account: MarginAccountView | null }) {
  const { t } = useTranslation("margin");
  const usdt = (v: string | undefined) => (v === undefined ? "--" : `${formatDecimal(v, 2)} USDT`);
  const rows: Array<[string, string, string]> = [
    ["total-asset", t("totalAsset"), usdt(account?.totalAsset)],
    ["total-debt", t("totalDebt"), usdt(account?.totalDebt)],
    ["net-asset", t("netAsset"), usdt(account?.netAsset)],
  ];
  if (account?.mode === "isolated")
    rows.push(["liq-price", t("liquidationPrice"), account.liquidationPrice ?? "--"]);
  return (
    <dl className="margin-facts">
      {rows.map(([key, label, value]) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd data-testid={`margin-${key}`}>
            <bdi dir="ltr">{value}</bdi>
          </dd>
        </div>
      ))}
    </dl>
  );
}
