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

/**
 * Resolves in a task of its own (`scheduler.yield` where there is one, a timer elsewhere):
 * `await nextTask()` between two pieces of work lets the browser paint and answer input in
 * between, and keeps each piece a short task.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
