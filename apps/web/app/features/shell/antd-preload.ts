import preloadList from "virtual:meridian/antd-preload";
import { getLocale } from "@meridian/contracts/locales";
import { preloadModule } from "react-dom";

/**
 * On a page that renders antd: `<link rel="modulepreload">` for antd's provider and the
 * language's antd and dayjs data, which the client entry imports before hydrating. Without
 * these the browser would only ask for them once the entry script ran. Call while rendering
 * (React emits the links in the document head).
 */
export function preloadAntd(locale: string, nonce: string | undefined): void {
  const entry = getLocale(locale);
  const files = [
    ...preloadList.config,
    preloadList.antdLocales[entry.antdLocale],
    preloadList.dayjsLocales[entry.dayjsLocale],
  ];
  for (const href of files) if (href) preloadModule(href, { as: "script", nonce });
}
