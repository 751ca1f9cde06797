import { type Metric, onCLS, onFCP, onINP, onLCP, onTTFB } from "web-vitals";
import { guard } from "./util.ts";

/**
 * Starts collecting LCP, CLS, INP, FCP and TTFB. The returned function gives the
 * values seen so far (`{lcp, cls, inp, fcp, ttfb}`, ms except CLS) or undefined
 * when there is none yet; the tracker sends them once, as a system (9) event.
 */
export function watchVitals(): () => Record<string, number> | undefined {
  const values: Record<string, number> = {};
  const keep = guard((metric: Metric) => {
    values[metric.name.toLowerCase()] =
      metric.name === "CLS" ? Math.round(metric.value * 1e4) / 1e4 : Math.round(metric.value);
  });
  const watchers: ((report: (metric: Metric) => void) => void)[] = [onLCP, onCLS, onINP, onFCP, onTTFB];
  for (const watch of watchers) guard(watch)(keep);
  return () => (Object.keys(values).length ? { ...values } : undefined);
}
