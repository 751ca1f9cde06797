import { DAILY_INTEREST_E8, formatDecimal, formatScaled, ppmToPercent, type VipTier } from "@meridian/domain";
import { useTranslation } from "react-i18next";

/**
 * The maker/taker schedule from the VIP tiers (spot, or the USDT-M perpetuals' own
 * rates on the same levels), the visitor's own tier marked.
 */
export function TierTable({
  tiers,
  current,
  market = "spot",
}: {
  tiers: readonly VipTier[];
  current: number | null;
  market?: "spot" | "futures";
}) {
  const { t } = useTranslation("fees");
  const rates = (tier: VipTier) =>
    market === "spot" ? [tier.makerPpm, tier.takerPpm] : [tier.futuresMakerPpm, tier.futuresTakerPpm];
  return (
    <div className="fees-table-wrap">
      <table className="fees-table" data-testid={market === "spot" ? "fee-table" : "fee-table-futures"}>
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
              {rates(tier).map((ppm, i) => (
                <td key={i === 0 ? "maker" : "taker"}>{ppmToPercent(ppm)}%</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A rate in 1e-8 units as a percentage without trailing zeros (20_000 -> "0.02"). */
const e8Percent = (e8: bigint) => formatScaled(e8, 6).replace(/\.?0+$/, "");

/** Margin borrowing: each asset's daily rate, and what it comes to over a year (charged hourly, not compounded). */
export function InterestTable() {
  const { t } = useTranslation("fees");
  return (
    <div className="fees-table-wrap">
      <table className="fees-table" data-testid="interest-table">
        <thead>
          <tr>
            <th>{t("table.asset")}</th>
            <th>{t("table.daily")}</th>
            <th>{t("table.yearly")}</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(DAILY_INTEREST_E8).map(([asset, e8]) => (
            <tr key={asset} data-asset={asset}>
              <td>{asset}</td>
              <td>{e8Percent(e8)}%</td>
              <td>{e8Percent(e8 * 365n)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
