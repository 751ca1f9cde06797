/**
 * Leading-edge throttle: the first call runs, further calls within `intervalMs`
 * of it are dropped (not deferred). Forced logouts and error toasts use it so a
 * burst of failing requests reacts once (docs/product.md §8: every 2 s).
 */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  intervalMs: number,
  now: () => number = Date.now,
): (...args: A) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (...args: A) => {
    const t = now();
    if (t - last < intervalMs) return;
    last = t;
    fn(...args);
  };
}

/** docs/product.md §9: logout and toasts are throttled to every 2 s. */
export const HOOK_THROTTLE_MS = 2000;
