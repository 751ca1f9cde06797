import { getLocale } from "@meridian/contracts/locales";
import { ConfigProvider } from "antd";
import type { i18n as I18n } from "i18next";
import { type ReactNode, useMemo } from "react";
import { I18nextProvider } from "react-i18next";
import { getAntdLocale } from "../../i18n/locale-modules.ts";
import { antdThemeConfig } from "../../theme/antd-theme.ts";
import type { Theme } from "../../theme/theme.ts";
import { FiatProvider } from "./fiat.tsx";
import { buildValidateMessages } from "./validate-messages.ts";

interface ShellProvidersProps {
  i18n: I18n;
  /** CSP nonce for the `<style>` tags antd still writes at runtime (token variables). */
  nonce?: string | undefined;
  locale: string;
  theme: Theme;
  children: ReactNode;
}

/**
 * Everything the shell components need above them: translations, Ant Design (theme with
 * zeroRuntime, locale, direction, form messages) and the fiat currency. The app root and
 * the embeddable bundle both mount it.
 *
 * NOTE: antd styles come from the extracted stylesheet (app/styles/antd.generated.css),
 * which the host page must link; zeroRuntime means antd injects no component CSS itself.
 */
export function ShellProviders({ i18n, nonce, locale, theme, children }: ShellProvidersProps) {
  const entry = getLocale(locale);
  const formBundle = i18n.getResourceBundle(i18n.language, "form") as Record<string, unknown> | undefined;
  const validateMessages = useMemo(() => buildValidateMessages(formBundle), [formBundle]);
  const themeConfig = useMemo(() => ({ ...antdThemeConfig(theme), zeroRuntime: true }), [theme]);

  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider
        theme={themeConfig}
        locale={getAntdLocale(entry.code)}
        direction={entry.dir}
        form={{ validateMessages }}
        csp={nonce ? { nonce } : undefined}
      >
        <FiatProvider locale={entry.code}>{children}</FiatProvider>
      </ConfigProvider>
    </I18nextProvider>
  );
}
