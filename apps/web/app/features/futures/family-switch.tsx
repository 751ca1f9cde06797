import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { familyPath, type MarginFamily } from "./families.ts";

const FAMILIES: readonly MarginFamily[] = ["usdt", "coin"];

/**
 * USDT-M | COIN-M on the futures page: links to the other family's contract on the same
 * coin (BTCUSDT <-> BTCUSD), or its first contract when that coin has none there.
 */
export function FamilySwitch({
  locale,
  family,
  base,
}: {
  locale: string;
  family: MarginFamily;
  base: string;
}) {
  const { t } = useTranslation("futures");
  return (
    <nav className="futures-family" aria-label={t("family.label")} data-testid="futures-family">
      {FAMILIES.map((f) => (
        <a
          key={f}
          href={localizePath(locale, familyPath(f, base))}
          aria-current={f === family ? "page" : undefined}
          className={f === family ? "is-active" : undefined}
          data-testid={`futures-family-${f}`}
        >
          {t(`family.${f}`)}
        </a>
      ))}
    </nav>
  );
}
