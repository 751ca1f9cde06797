import { useEffect } from "react";
import { loadTracker } from "./load-tracker.ts";

/**
 * Root-route hook: starts tracking on the client and keeps its `uid` on the logged-in
 * user (docs/product.md §4, "Session": after the user info answered; null when logged out).
 */
export function useTracker(userId: string | undefined): void {
  useEffect(() => {
    void loadTracker().then((tracker) => tracker?.setUser(userId ?? null));
  }, [userId]);
}
