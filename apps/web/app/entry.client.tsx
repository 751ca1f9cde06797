import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { HYDRATE_START_EVENT } from "./features/shell/paint-first.ts";

const root = document.documentElement;
const locale = root.dataset.locale ?? "en";

/**
 * A page that renders antd (the root layout marks it `data-antd`) hydrates after antd's
 * provider module and this locale's antd/dayjs data are loaded, as the server rendered
 * with them: the first client render matches (no flash of English dates or pagination
 * text) and nothing suspends mid-hydration. Pages without antd hydrate at once.
 */
async function prepare(): Promise<void> {
  if (!root.hasAttribute("data-antd")) return;
  const [modules] = await Promise.all([
    import("./i18n/locale-modules.ts"),
    import("./features/shell/antd-gate.tsx").then((gate) => gate.loadAntdConfig()),
  ]);
  await modules.antdLocaleReady(locale);
  modules.applyDayjsLocale(locale);
}

prepare()
  .catch(() => undefined)
  .then(() => {
    // From here React sees every event; the boot script stops collecting early clicks.
    window.dispatchEvent(new Event(HYDRATE_START_EVENT));
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <HydratedRouter />
        </StrictMode>,
      );
    });
  });

// The installed app keeps its offline worker registered on whatever page it opens
// (a browser tab gets one only from /download: features/download/service-worker.ts).
if (window.matchMedia?.("(display-mode: standalone)").matches) {
  void import("./features/download/service-worker.ts").then((sw) => sw.registerServiceWorker());
}
