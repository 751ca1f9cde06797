import { APP_VERSION } from "../../lib/app-version.ts";

type Tracker = typeof import("@meridian/tracker");

let loading: Promise<Tracker | undefined> | undefined;

/**
 * Loads the tracking SDK once, off the critical path (its own chunk), and starts it: page
 * views (the SDK derives b9332/b9331/b9642 from the path), clicks and exposes of
 * `data-track-*` elements. Never throws into the page. The root layout calls it after
 * hydration (use-tracker.ts); a page without hydration, from its islands bundle.
 */
export function loadTracker(): Promise<Tracker | undefined> {
  loading ??= import("@meridian/tracker").then(
    (tracker) => {
      tracker.init({
        appId: "meridian-web",
        appName: "Meridian",
        ver: APP_VERSION,
        logEnv: import.meta.env.PROD ? "online" : "test1",
      });
      return tracker;
    },
    () => undefined,
  );
  return loading;
}
