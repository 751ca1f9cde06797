import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { readStored, StorageKey, writeStored } from "../trading-screen/storage.ts";

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

/** The panel each step outlines (a direct child of the page root). */
const AREA_CLASS: Record<GuideStep, string> = {
  chart: "trade-chart",
  book: "trade-book",
  form: "trade-order",
  orders: "trade-orders",
};

/** Where the card may sit: its stylesheet corner (bottom end) first, then the others. */
export const GUIDE_CORNERS = ["bottom-end", "top-end", "bottom-start", "top-start"] as const;
export type GuideCorner = (typeof GUIDE_CORNERS)[number];

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Visible area two boxes share (0 when apart). */
function overlap(a: Box, b: Box): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * The corner of the viewport where a card of `card`'s size covers least of `area` (the
 * first that covers none): the tour describes a control, so it must not hide it.
 * `top` is how far below the viewport's top a top corner starts (under the header).
 */
export function guideCorner(
  area: Box,
  card: { width: number; height: number },
  viewport: { width: number; height: number },
  rtl: boolean,
  margin = 16,
  top = 80,
): GuideCorner {
  let best: GuideCorner = "bottom-end";
  let least = Number.POSITIVE_INFINITY;
  for (const corner of GUIDE_CORNERS) {
    const end = corner.endsWith("end") !== rtl;
    const box = {
      left: end ? viewport.width - margin - card.width : margin,
      top: corner.startsWith("top") ? top : viewport.height - margin - card.height,
      ...card,
    };
    const covered = overlap(box, area);
    if (covered < least) {
      least = covered;
      best = corner;
    }
    if (covered === 0) break;
  }
  return best;
}

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
  const [corner, setCorner] = useState<GuideCorner>("bottom-end");
  // Until placed, the stylesheet puts the card where the first step's card goes on a phone
  // and on a wide screen (trade-form.css): a card painted in one corner and moved to
  // another after hydration was a layout shift (Lighthouse measured CLS 0.36 on a phone).
  const [placed, setPlaced] = useState(false);
  const cardRef = useRef<HTMLDivElement>(null);
  const index = skipped ? null : position;
  const current = index === null ? null : (GUIDE_STEPS[index] ?? null);

  // Placed away from the area it describes once the browser has laid the page out, and again
  // when the window or the area changes size. The resize observer's first report comes after
  // the browser's own layout: reading the boxes there costs nothing, where reading them in
  // the hydration commit forced a layout of the whole page (about 150 ms of blocking time at
  // Lighthouse's 4x CPU on a phone).
  useEffect(() => {
    const card = cardRef.current;
    if (current === null || card === null) return;
    const place = () => {
      setPlaced(true);
      const area = card.parentElement?.querySelector(`:scope > .${AREA_CLASS[current]}`);
      if (!area) return;
      const r = area.getBoundingClientRect();
      const c = card.getBoundingClientRect();
      const rtl = getComputedStyle(card).direction === "rtl";
      // A top corner starts under the sticky header (and the download bar above it).
      const header = document.querySelector("header")?.getBoundingClientRect().bottom ?? 64;
      const top = Math.max(16, header + 12);
      card.style.setProperty("--guide-top", `${top}px`);
      setCorner(
        guideCorner(
          { left: r.left, top: r.top, width: r.width, height: r.height },
          { width: c.width, height: c.height },
          { width: window.innerWidth, height: window.innerHeight },
          rtl,
          16,
          top,
        ),
      );
    };
    // The phone layout shows the area only once its tab opens: place again when it takes its size.
    const observer = new ResizeObserver(place);
    observer.observe(card);
    const area = card.parentElement?.querySelector(`:scope > .${AREA_CLASS[current]}`);
    if (area) observer.observe(area);
    window.addEventListener("resize", place);
    window.addEventListener("scroll", place, { passive: true });
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", place);
      window.removeEventListener("scroll", place);
    };
  }, [current]);

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
        ref={cardRef}
        className={placed ? `trade-guide is-${corner}` : "trade-guide is-placing"}
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
