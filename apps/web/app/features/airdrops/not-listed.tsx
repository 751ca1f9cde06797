import { useTranslation } from "react-i18next";
import { formatDate } from "../../ui/money.ts";

/**
 * In place of a trade link while an airdrop's token has no market: "Not listed yet" and
 * its listing date (or TBA), never a link to a pair that does not exist.
 */
export function NotListed({
  listingAt,
  locale,
  className,
}: {
  listingAt: number | null;
  locale: string;
  className?: string;
}) {
  const { t } = useTranslation("airdrops");
  return (
    <span className={`ad-not-listed${className ? ` ${className}` : ""}`} data-testid="not-listed">
      <strong>{t("detail.notListed")}</strong>
      <span>
        {t("columns.listingAt")}: {formatDate(listingAt, locale) || t("detail.tba")}
      </span>
    </span>
  );
}
