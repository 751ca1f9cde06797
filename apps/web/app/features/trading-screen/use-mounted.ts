import { useEffect, useState } from "react";

/**
 * False during SSR and the hydrating render, true after: for output that depends on
 * the browser (local time zone, local storage), so hydration never mismatches.
 */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
