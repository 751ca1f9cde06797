import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { readStored, StorageKey, writeStored } from "./storage.ts";

export const GUIDE_STEPS = ["chart", "book", "form", "orders"] as const;
export type GuideStep = (typeof GUIDE_STEPS)[number];

/**
 * First-visit tour of the trade screen: one card per area, the area outlined
 * (`data-guide` on the page root). Skipping or finishing stores the skip-guide key.
 */
export function useGuide(): { step: GuideStep | null; card: React.ReactNode } {
  const { t } = useTranslation("trade");
  const [index, setIndex] = useState<number | null>(null);

  useEffect(() => {
    if (readStored(StorageKey.SKIP_GUIDE) !== "1") setIndex(0);
  }, []);

  const finish = () => {
    writeStored(StorageKey.SKIP_GUIDE, "1");
    setIndex(null);
  };
  const step = index === null ? null : (GUIDE_STEPS[index] ?? null);
  if (step === null || index === null) return { step: null, card: null };
  const last = index === GUIDE_STEPS.length - 1;
  const card = (
    <div className="trade-guide" role="dialog" aria-labelledby="trade-guide-title" data-testid="trade-guide">
      <p className="trade-guide-count">
        {index + 1} / {GUIDE_STEPS.length}
      </p>
      <h2 id="trade-guide-title">{t(`guide.${step}.title`)}</h2>
      <p>{t(`guide.${step}.body`)}</p>
      <div className="trade-guide-actions">
        <button type="button" className="trade-link-button" onClick={finish} data-testid="guide-skip">
          {t("guide.skip")}
        </button>
        <button
          type="button"
          className="trade-guide-next"
          onClick={() => (last ? finish() : setIndex(index + 1))}
          data-testid="guide-next"
        >
          {t(last ? "guide.done" : "guide.next")}
        </button>
      </div>
    </div>
  );
  return { step, card };
}
