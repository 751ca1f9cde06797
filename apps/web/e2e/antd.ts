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
 * Does `act` until `took` holds (polled for `timeout` ms after each try), three tries at
 * most; a failed try is not repeated when `canRetry` says no.
 */
async function untilItTook(
  act: () => Promise<void>,
  took: () => Promise<boolean>,
  timeout: number,
  canRetry: () => Promise<boolean> = async () => true,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
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
    async () => {
      // The list may still be open from a click that missed the option.
      if (!(await option.isVisible())) await select.click();
      await option.click();
    },
    async () => matches(await select.textContent()),
    2_000,
  );
}

/** Clicks `target` until `took` says the click had its effect (polled 4 s after each click). */
export function clickUntil(target: Locator, took: () => Promise<boolean>): Promise<void> {
  return untilItTook(
    () => target.click(),
    took,
    4_000,
    () => target.isVisible(),
  );
}

/** Clicks `button` (a dialog's close or done button) until `gone` has left the page. */
export function clickUntilGone(button: Locator, gone: Locator): Promise<void> {
  return clickUntil(button, async () => (await gone.count()) === 0);
}
