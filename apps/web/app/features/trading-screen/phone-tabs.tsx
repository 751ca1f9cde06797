import { useTranslation } from "react-i18next";

/** The panes a trading screen stacks behind tabs at phone width (spot and futures alike). */
export type PhoneTab = "chart" | "book" | "trades" | "form";
const PHONE_TABS: readonly PhoneTab[] = ["chart", "book", "trades", "form"];

/** The tab strip that picks which pane a phone-width trading screen shows. */
export function PhoneTabs({ active, onChange }: { active: PhoneTab; onChange: (tab: PhoneTab) => void }) {
  const { t } = useTranslation("trade");
  return (
    <div className="trade-phone-tabs" role="tablist" aria-label={t("phone.tabs")}>
      {PHONE_TABS.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          aria-selected={tab === active}
          className={tab === active ? "is-active" : undefined}
          onClick={() => onChange(tab)}
          data-testid={`phone-tab-${tab}`}
        >
          {t(`phone.${tab}`)}
        </button>
      ))}
    </div>
  );
}
