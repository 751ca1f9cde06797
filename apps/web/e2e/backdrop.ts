/**
 * The backdrop of an open antd dialog, as the browser paints it: a browser test opens a
 * dialog and calls `expectDimmed` to check that the page behind is dimmed (the mask once
 * sat in the DOM fully transparent).
 */
import { expect } from "vitest";
import { motionEnded } from "./antd.ts";
import type { Page } from "./harness.ts";

export interface MaskState {
  background: string;
  opacity: number;
  /** The mask's box covers the whole viewport. */
  covers: boolean;
  /** What paints above it at the viewport's corners, as `tag#id.class`: empty when nothing. */
  above: string[];
}

/** The open dialog's backdrop as the browser paints it; null when no mask is rendered. */
export function maskState(page: Page): Promise<MaskState | null> {
  return page.evaluate(() => {
    const mask = [...document.querySelectorAll<HTMLElement>(".ant-modal-mask")].find(
      (m) => m.getClientRects().length > 0,
    );
    if (!mask) return null;
    const rect = mask.getBoundingClientRect();
    const corners: Array<[number, number]> = [
      [1, 1],
      [innerWidth - 2, 1],
      [1, innerHeight - 2],
      [innerWidth - 2, innerHeight - 2],
    ];
    // The mask and the dialogs' wraps above it take no pointer events; let the mask take
    // them for a moment, so hit-testing reports what paints on top at each corner. Every
    // wrap, not only this mask's: a wrap is a transparent positioning box that paints
    // nothing, and a second one (a dialog still leaving, another root) would otherwise be
    // reported as covering the page.
    const wraps = [...document.querySelectorAll<HTMLElement>(".ant-modal-wrap")];
    const savedMask = mask.style.pointerEvents;
    const savedWraps = wraps.map((w) => w.style.pointerEvents);
    mask.style.pointerEvents = "auto";
    for (const w of wraps) w.style.pointerEvents = "none";
    const above = corners.flatMap(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      if (hit === mask) return [];
      if (!hit) return [`nothing at ${x},${y}`];
      const id = hit.id ? `#${hit.id}` : "";
      return [`${hit.tagName.toLowerCase()}${id}.${[...hit.classList].join(".")} at ${x},${y}`];
    });
    mask.style.pointerEvents = savedMask;
    wraps.forEach((w, i) => {
      w.style.pointerEvents = savedWraps[i] ?? "";
    });
    const style = getComputedStyle(mask);
    return {
      background: style.backgroundColor,
      opacity: Number(style.opacity),
      covers: rect.left <= 0 && rect.top <= 0 && rect.right >= innerWidth && rect.bottom >= innerHeight,
      above,
    };
  });
}

/** Alpha of an `rgb()`/`rgba()` colour (0 for `transparent`). */
function alpha(color: string): number {
  if (color === "transparent") return 0;
  const parts = (color.match(/[\d.]+/g) ?? []).map(Number);
  return parts.length >= 4 ? (parts[3] ?? 0) : 1;
}

/** The open dialog dims the page: an opaque-enough backdrop over the whole viewport, above the page. */
export async function expectDimmed(page: Page, when: string): Promise<void> {
  // The backdrop fades in and the dialog zooms in (antd's motions): measure once both
  // have ended, however long a loaded machine takes, not after a fixed time.
  await motionEnded(page);
  const mask = await maskState(page);
  expect(mask?.opacity, `${when}: backdrop opacity after its fade`).toBe(1);
  expect(mask, `${when}: no backdrop`).not.toBeNull();
  expect(alpha(mask?.background ?? "transparent"), `${when}: backdrop ${mask?.background}`).toBeGreaterThan(
    0.2,
  );
  expect(mask?.covers, `${when}: backdrop covers the viewport`).toBe(true);
  // Nothing paints above it at the corners (a failure names what does). Polled, for as long
  // as the test may take: hit-testing follows layout, which a loaded machine may not have
  // caught up with yet.
  await expect
    .poll(async () => (await maskState(page))?.above ?? ["no backdrop"], {
      timeout: 20_000,
      message: `${when}: backdrop above the page`,
    })
    .toEqual([]);
}
