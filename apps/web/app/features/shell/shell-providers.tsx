import { getLocale } from "@meridian/contracts/locales";
import type { i18n as I18n } from "i18next";
import { type ReactNode, useMemo } from "react";
import { I18nextProvider } from "react-i18next";
import type { Theme } from "../../theme/theme.ts";
import { AntdSettingsContext } from "./antd-settings.ts";
import { FiatProvider } from "./fiat.tsx";

interface ShellProvidersProps {
  i18n: I18n;
  /** CSP nonce for the `<style>` tags antd still writes at runtime (token variables). */
  nonce?: string | undefined;
  locale: string;
  theme: Theme;
  /** URL of the extracted antd stylesheet, loaded with the first antd page or dialog (see AntdSettings). */
  antdStylesheet?: string | undefined;
  children: ReactNode;
}

/**
 * Everything the shell components need above them: translations, the fiat currency and
 * the settings Ant Design will use. The app root and the embeddable bundle both mount it.
 *
 * NOTE: no antd here. Whatever renders antd components sits inside `AntdConfig`
 * (antd-config.tsx): the root wraps pages that use antd (`AntdGate`), and the legal
 * dialog and phone menu wrap themselves, so antd-free pages ship neither antd's
 * JavaScript nor its stylesheet. antd styles come from the extracted stylesheet
 * (zeroRuntime): antd injects no component CSS itself.
 */
export function ShellProviders({
  i18n,
  nonce,
  locale,
  theme,
  antdStylesheet,
  children,
}: ShellProvidersProps) {
  const antdSettings = useMemo(
    () => ({ locale, theme, nonce, stylesheet: antdStylesheet }),
    [locale, theme, nonce, antdStylesheet],
  );
  return (
    <I18nextProvider i18n={i18n}>
      <AntdSettingsContext value={antdSettings}>
        <FiatProvider locale={getLocale(locale).code}>{children}</FiatProvider>
      </AntdSettingsContext>
    </I18nextProvider>
  );
}
