import type { AirdropDetail } from "@meridian/contracts";
import { useTranslation } from "react-i18next";
import { formatDate, formatFiat, formatMoney } from "../../ui/money.ts";
import { useFiat } from "../shell/fiat.tsx";

/** Key figures: value, price, the listing-price prediction (always in dollars), dates. */
export function DetailFacts({ airdrop: a, locale }: { airdrop: AirdropDetail; locale: string }) {
  const { t } = useTranslation("airdrops");
  const { fiat } = useFiat();
  const rows: { key: string; label: string; value: string }[] = [
    { key: "estValue", label: t("columns.estValue"), value: formatFiat(a.estValue, fiat, locale) },
    {
      key: "currentPrice",
      label: t("columns.currentPrice"),
      value: a.currentPrice === "0" ? t("detail.notListed") : formatFiat(a.currentPrice, fiat, locale),
    },
    {
      key: "prediction",
      label: `${t("detail.listingPrice")} (${t("detail.predictionLabel")})`,
      value: formatMoney(a.predictedPrice, "USD", locale),
    },
    { key: "chain", label: t("columns.chain"), value: a.chain },
    {
      key: "listingAt",
      label: t("columns.listingAt"),
      value: formatDate(a.listingAt, locale) || t("detail.tba"),
    },
    { key: "startAt", label: t("columns.startAt"), value: formatDate(a.startAt, locale) },
    { key: "endAt", label: t("columns.endAt"), value: formatDate(a.endAt, locale) },
    { key: "claimAt", label: t("columns.claimAt"), value: formatDate(a.claimAt, locale) || t("detail.tba") },
  ];
  if (a.status === "active") {
    rows.push({
      key: "daysLeft",
      label: t("detail.countdown"),
      value: t("detail.daysLeft", { count: a.daysLeft }),
    });
  }
  return (
    <section className="ad-box" aria-labelledby="ad-facts">
      <h2 id="ad-facts">{t("detail.facts")}</h2>
      <dl className="ad-facts">
        {rows.map((r) => (
          <div key={r.key} data-fact={r.key}>
            <dt>{r.label}</dt>
            <dd>{r.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
