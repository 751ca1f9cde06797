/**
 * Picks an option of an antd `Select` as a person does: open it, click the option, see it
 * chosen. Inside a dialog that is still zooming in, a loaded machine can open the list
 * where the select was a frame earlier and the click lands beside the option (the list
 * closes, nothing is chosen). The pick is checked and, when it did not take, done again.
 */

import type { Locator } from "playwright-core";
import { expect } from "vitest";
import type { Page } from "./harness.ts";

export async function chooseOption(page: Page, select: Locator, label: string | RegExp): Promise<void> {
  const option = page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option")
    .filter({ hasText: label });
  const matches = (text: string | null) =>
    typeof label === "string" ? text?.trim() === label : label.test(text?.trim() ?? "");
  for (let attempt = 1; ; attempt++) {
    // The list may still be open from a click that missed the option.
    if (!(await option.first().isVisible())) await select.click();
    await option.first().click();
    try {
      await expect.poll(async () => matches(await select.textContent()), { timeout: 2_000 }).toBe(true);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
