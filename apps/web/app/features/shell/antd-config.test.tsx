// @vitest-environment jsdom
import "antd/locale/en_US";
import { createElement, lazy, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { expect, it } from "vitest";
import { createI18n } from "../../i18n/i18n.ts";
import { getAntdLocale } from "../../i18n/locale-modules.ts";
import { AntdConfig } from "./antd-config.tsx";

const i18n = createI18n({ lng: "en", bundles: {} });

// An antd island on a page without antd (the trading pages): AntdConfig first mounts in a
// Suspense retry, a concurrent render, before the language's antd data was ever asked for;
// the data's chunk is already fetched, so it arrives before React resumes that render.
it("mounts while the antd locale loads without a recoverable error (React #520 / #467)", async () => {
  expect(getAntdLocale("en")).toBeUndefined();
  const errors: unknown[] = [];
  const host = document.createElement("div");
  const root = createRoot(host, { onRecoverableError: (error) => errors.push(error) });
  const Island = lazy(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { default: () => createElement(AntdConfig, null, createElement("span", null, "island")) };
  });
  root.render(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(Suspense, { fallback: null }, createElement(Island)),
    ),
  );
  await expect.poll(() => host.textContent, { timeout: 5_000 }).toBe("island");
  root.unmount();
  expect(errors.map((e) => `${e} (cause: ${(e as Error).cause})`)).toEqual([]);
  expect(getAntdLocale("en")).toBeDefined();
});
