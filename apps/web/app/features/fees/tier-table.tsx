import { formatDecimal, ppmToPercent, type VipTier } from "@meridian/domain";
import { useTranslation } from "react-i18next";

/** The maker/taker schedule from the VIP tiers, the visitor's own tier marked. */
export function TierTable({ tiers, current }: { tiers: readonly VipTier[]; current: number | null }) {
  const { t } = useTranslation("fees");
  return (
    <div className="fees-table-wrap">
      <table className="fees-table" data-testid="fee-table">
        <thead>
          <tr>
            <th>{t("table.level")}</th>
            <th>{t("table.volume")}</th>
            <th>{t("table.or")}</th>
            <th>{t("table.balance")}</th>
            <th>{t("table.maker")}</th>
            <th>{t("table.taker")}</th>
          </tr>
        </thead>
        <tbody>
          {tiers.map((tier) => (
            <tr
              key={tier.level}
              className={tier.level === current ? "is-current" : undefined}
              aria-current={tier.level === current ? "true" : undefined}
              data-level={tier.level}
            >
              <td>
                <span className="fees-level">{t("level", { level: tier.level })}</span>
                {tier.level === current ? <span className="fees-you">{t("yours")}</span> : null}
              </td>
              <td>{tier.level === 0 ? t("table.none") : `≥ ${formatDecimal(tier.minVolume30d, 0)} USDT`}</td>
              <td className="fees-or">{tier.level === 0 ? "" : t("table.or")}</td>
              <td>{tier.level === 0 ? t("table.none") : `≥ ${formatDecimal(tier.minBalance, 0)} USDT`}</td>
              <td>{ppmToPercent(tier.makerPpm)}%</td>
              <td>{ppmToPercent(tier.takerPpm)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
