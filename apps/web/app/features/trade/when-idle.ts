/**
 * Runs `fn` once the main thread is idle (at most `timeoutMs` later), so work nobody waits
 * for in the first second (building the chart) does not hold up hydration or the first
 * input. Returns the cancel. Where there is no idle callback (Safari), a timer stands in.
 */
export function whenIdle(fn: () => void, timeoutMs = 2_000): () => void {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(fn, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 50);
  return () => clearTimeout(id);
}
