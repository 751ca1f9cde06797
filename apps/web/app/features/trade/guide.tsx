import { useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { readStored, StorageKey, writeStored } from "./storage.ts";

export const GUIDE_STEPS = ["chart", "book", "form", "orders"] as const;
export type GuideStep = (typeof GUIDE_STEPS)[number];

/** Set on the page root by GUIDE_BOOT_SCRIPT before the first paint when the tour was skipped. */
export const GUIDE_SKIPPED_ATTR = "data-guide-skipped";

/**
 * Inline script placed inside the page root, before the card: the server renders the tour
 * (it cannot read local storage), so a visitor who skipped it has the card and outline
 * hidden before they paint (trade-form.css), until hydration drops them. Written without
 * `<`, `>` or `&` so it survives HTML text escaping.
 */
const GUIDE_BOOT_SCRIPT = `try{if(localStorage.getItem("${StorageKey.SKIP_GUIDE}")==="1")document.currentScript.parentNode.setAttribute("${GUIDE_SKIPPED_ATTR}","")}catch(e){}`;

const noSubscription = () => () => {};
/** Skipped before (local storage); the server, and hydration after it, say no. */
const readSkipped = () => readStored(StorageKey.SKIP_GUIDE) === "1";
const serverSkipped = () => false;

/**
 * First-visit tour of the trade screen: one card per area, the area outlined
 * (`data-guide` on the page root). Skipping or finishing stores the skip-guide key.
 * The first card is in the server's HTML, so a first visit paints it with the page
 * instead of after the scripts; `nonce` is the document's CSP nonce for the boot script.
 */
export function useGuide(nonce: string | undefined): { step: GuideStep | null; card: React.ReactNode } {
  const { t } = useTranslation("trade");
  const skipped = useSyncExternalStore(noSubscription, readSkipped, serverSkipped);
  const [position, setIndex] = useState<number | null>(0);
  const index = skipped ? null : position;

  const finish = () => {
    writeStored(StorageKey.SKIP_GUIDE, "1");
    setIndex(null);
  };
  const step = index === null ? null : (GUIDE_STEPS[index] ?? null);
  if (step === null || index === null) return { step: null, card: null };
  const last = index === GUIDE_STEPS.length - 1;
  const card = (
    <>
      <script nonce={nonce} suppressHydrationWarning>
        {GUIDE_BOOT_SCRIPT}
      </script>
      <div
        className="trade-guide"
        role="dialog"
        aria-labelledby="trade-guide-title"
        data-testid="trade-guide"
      >
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
    </>
  );
  return { step, card };
}
