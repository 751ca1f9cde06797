import { useEffect } from "react";
import { APP_VERSION } from "../../lib/app-version.ts";

type Tracker = typeof import("@meridian/tracker");

let loading: Promise<Tracker | undefined> | undefined;

/**
 * Loads the tracking SDK once, after hydration and off the critical path (its own
 * chunk), and starts it: page views (the SDK derives b9332/b9331/b9642 from the path),
 * clicks and exposes of `data-track-*` elements. Never throws into the page.
 */
function loadTracker(): Promise<Tracker | undefined> {
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

/**
 * Root-route hook: starts tracking on the client and keeps its `uid` on the logged-in
 * user (docs/product.md §4, "Session": after the user info answered; null when logged out).
 */
export function useTracker(userId: string | undefined): void {
  useEffect(() => {
    void loadTracker().then((tracker) => tracker?.setUser(userId ?? null));
  }, [userId]);
}
