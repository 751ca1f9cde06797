import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { applyDayjsLocale, loadLocaleModules } from "./i18n/locale-modules.ts";

// The server rendered with this locale's antd/dayjs data; load the same before hydrating
// so the first client render matches (no flash of English date or pagination text).
const locale = document.documentElement.dataset.locale ?? "en";

loadLocaleModules(locale)
  .catch(() => undefined)
  .then(() => {
    applyDayjsLocale(locale);
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <HydratedRouter />
        </StrictMode>,
      );
    });
  });
