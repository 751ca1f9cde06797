import { getLocale } from "@meridian/contracts/locales";
import { ConfigProvider } from "antd";
import { type ReactNode, use, useContext, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { antdLocaleReady, applyDayjsLocale, getAntdLocale } from "../../i18n/locale-modules.ts";
import { antdThemeConfig } from "../../theme/antd-theme.ts";
import { AntdSettingsContext } from "./antd-settings.ts";
import { buildValidateMessages } from "./validate-messages.ts";

/**
 * Ant Design's provider for whatever renders antd components: pages that use antd (the
 * root layout wraps them), and the shell's dialogs and drawer (which wrap themselves,
 * so pages without antd load it only when one opens). Theme with zeroRuntime, locale,
 * direction, form messages, CSP nonce; plus the extracted stylesheet as a React
 * stylesheet resource when the host asked for it (see AntdSettings.stylesheet).
 *
 * NOTE: suspends until the language's antd and dayjs data are loaded (the server and the
 * client entry load them first on pages with antd; on the trading pages, which have none,
 * an antd island's first render waits for them).
 */
export function AntdConfig({ children }: { children: ReactNode }) {
  const { locale, theme, nonce, stylesheet } = useContext(AntdSettingsContext);
  const { i18n } = useTranslation();
  const entry = getLocale(locale);
  // Unconditional, before the hooks below: it returns at once once the data is there. A
  // `use` called only while the data was missing let React replay the first mount without
  // it (the data had arrived meanwhile), and the replay then ran the useMemo below as an
  // update with no hook to update: "Update hook called on initial render" (#467), which
  // React recovered from by rendering the root again synchronously and reported as #520.
  use(antdLocaleReady(entry.code));
  // dayjs's locale is global: antd pickers and the trade tables format with it.
  if (typeof document !== "undefined") applyDayjsLocale(entry.code);

  const formBundle = i18n.getResourceBundle(i18n.language, "form") as Record<string, unknown> | undefined;
  const validateMessages = useMemo(() => buildValidateMessages(formBundle), [formBundle]);
  const themeConfig = useMemo(() => ({ ...antdThemeConfig(theme), zeroRuntime: true }), [theme]);

  return (
    <>
      {stylesheet ? <link rel="stylesheet" href={stylesheet} precedence="antd" /> : null}
      <ConfigProvider
        theme={themeConfig}
        locale={getAntdLocale(entry.code)}
        direction={entry.dir}
        form={{ validateMessages }}
        csp={nonce ? { nonce } : undefined}
      >
        {children}
      </ConfigProvider>
    </>
  );
}
