import { useEffect } from "react";

/**
 * Starts the image-domain probe and swapper after hydration (never on the server, and
 * never before hydration: swapping `src` earlier would make React's markup differ).
 * The module loads on demand to stay out of the first-load bundle.
 */
export function useImageDomain(): void {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("./image-domain.ts")
      .then(({ startImageDomain }) => startImageDomain())
      .then((uninstall) => {
        if (cancelled) uninstall();
        else stop = uninstall;
      });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, []);
}
