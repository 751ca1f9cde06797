/**
 * Clicks in antd's animated pop-ups (dialogs zooming in, select lists) as a person does,
 * and checks the click took. On a loaded machine (a CI run at load 8-10) a click made
 * while a dialog still zooms in can land beside its target: a select's list closes with
 * nothing chosen, a dialog's button does nothing. Each helper checks the outcome and
 * clicks again when it did not take (three times at most).
 */

import type { Locator } from "playwright-core";
import { expect } from "vitest";
import type { Page } from "./harness.ts";

/**
 * Resolves once no antd pop-up motion is under way: no element carries one of the motion
 * classes antd's dialogs, lists and pop-overs use (`ant-zoom-appear-active`, `ant-fade-leave`,
 * `ant-slide-up-enter-start`, ...; not a button's loading icon, whose motion class can stay
 * on while it spins) and no finite
 * CSS animation or transition runs inside a dialog, drawer or pop-up list (spinners, which
 * never end, and the trading pages' price flashes are not waited for). Waits as long as the
 * machine needs, up to `timeout`.
 */
export async function motionEnded(page: Page, timeout = 30_000): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const name = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
          const motion =
            /^ant-(zoom|fade|slide|move)(-[a-z]+)*-(appear|enter|leave)(-(prepare|start|active))?$/;
          for (const el of document.querySelectorAll(
            "[class*='-appear'],[class*='-enter'],[class*='-leave']",
          )) {
            for (const cls of el.classList) if (motion.test(cls)) return `motion class on ${name(el)}`;
          }
          const popups =
            ".ant-modal-root, .ant-drawer, .ant-select-dropdown, .ant-dropdown, .ant-popover, .ant-picker-dropdown";
          for (const animation of document.getAnimations()) {
            const effect = animation.effect;
            const target = effect instanceof KeyframeEffect ? effect.target : null;
            const end = effect?.getComputedTiming().endTime;
            if (
              animation.playState === "running" &&
              typeof end === "number" &&
              Number.isFinite(end) &&
              target?.closest(popups) != null
            )
              return `animation on ${name(target)}`;
          }
          return "";
        }),
      { timeout, interval: 50, message: "an antd motion that never ended" },
    )
    .toBe("");
}

/**
 * Does `act` until `took` holds (polled for `timeout` ms after each try), three tries at
 * most; a failed try is not repeated when `canRetry` says no.
 */
async function untilItTook(
  page: Page,
  act: () => Promise<void>,
  took: () => Promise<boolean>,
  timeout: number,
  canRetry: () => Promise<boolean> = async () => true,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    // A click made while a dialog zooms in or a list slides open can land beside its
    // target: let the motion finish first, however long the machine takes.
    await motionEnded(page);
    await act();
    try {
      await expect.poll(took, { timeout }).toBe(true);
      return;
    } catch (error) {
      if (attempt === 3 || !(await canRetry())) throw error;
    }
  }
}

/** Picks `label` in the antd `Select` `select`: open it, click the option, see it chosen. */
export function chooseOption(page: Page, select: Locator, label: string | RegExp): Promise<void> {
  const option = page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")
    .filter({ hasText: label })
    .first();
  const matches = (text: string | null) =>
    typeof label === "string" ? text?.trim() === label : label.test(text?.trim() ?? "");
  return untilItTook(
    page,
    async () => {
      // The list may still be open from a click that missed the option.
      if (!(await option.isVisible())) await select.click();
      await option.click();
    },
    async () => matches(await select.textContent()),
    10_000,
  );
}

/** Clicks `target` until `took` says the click had its effect (polled up to 10 s after each click). */
export function clickUntil(target: Locator, took: () => Promise<boolean>): Promise<void> {
  return untilItTook(
    target.page(),
    () => target.click(),
    took,
    10_000,
    () => target.isVisible(),
  );
}

/** Clicks `button` (a dialog's close or done button) until `gone` has left the page. */
export function clickUntilGone(button: Locator, gone: Locator): Promise<void> {
  return clickUntil(button, async () => (await gone.count()) === 0);
}
