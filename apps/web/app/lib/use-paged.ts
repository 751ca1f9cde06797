import { useEffect, useState } from "react";

/** Rows a records page reads at once. */
export const PAGE_SIZE = 50;

/** One page of a list read backwards, and the cursor of the page before it (null: none). */
export interface CursorPage<T> {
  rows: T[];
  next: number | null;
}

/**
 * Loads one page of a list for the current filters (`key` names them); `older` reads the
 * page the last one named, a filter change starts again from the newest. `loading` until
 * the page for these filters has answered; a failure is kept in `error`, `retry` reads again.
 */
export function useCursorPages<T>(
  enabled: boolean,
  key: string,
  load: (before: number | undefined) => Promise<CursorPage<T>>,
) {
  const [cursors, setCursors] = useState<number[]>([]);
  // A page is kept with the filter key it was read for: a stale list never shows under new filters.
  const [loaded, setLoaded] = useState<{ key: string; page: CursorPage<T> } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter key starts from the newest page.
  useEffect(() => setCursors([]), [key]);
  const before = cursors[cursors.length - 1];
  // biome-ignore lint/correctness/useExhaustiveDependencies: `load` is rebuilt each render; `key` names what it reads.
  useEffect(() => {
    if (!enabled) return undefined;
    let stale = false;
    setError(null);
    load(before).then(
      (page) => !stale && setLoaded({ key, page }),
      (e: unknown) => !stale && setError(e),
    );
    return () => {
      stale = true;
    };
  }, [enabled, key, before, attempt]);
  const current = loaded?.key === key ? loaded.page : null;
  const next = current?.next ?? null;
  return {
    rows: current?.rows ?? [],
    loading: enabled && current === null && error === null,
    failed: error !== null,
    /** The failed read's error (for `LoadError`), null when none. */
    error,
    /** Reads the current page again. */
    retry: () => setAttempt((n) => n + 1),
    page: cursors.length + 1,
    newer: cursors.length > 0 ? () => setCursors((c) => c.slice(0, -1)) : undefined,
    older: next === null ? undefined : () => setCursors((c) => [...c, next]),
  };
}

/**
 * {@link useCursorPages} over a list the server pages by a `before` id: a full page has an
 * older one, read from its last row's id.
 */
export function usePaged<T>(
  enabled: boolean,
  key: string,
  load: (before: number | undefined) => Promise<T[]>,
  idOf: (row: T) => number,
) {
  return useCursorPages(enabled, key, (before) =>
    load(before).then((rows): CursorPage<T> => {
      const last = rows.at(-1);
      return { rows, next: rows.length === PAGE_SIZE && last !== undefined ? idOf(last) : null };
    }),
  );
}
