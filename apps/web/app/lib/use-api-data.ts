import { isApiError } from "@meridian/client/api-error";
import { useCallback, useEffect, useRef, useState } from "react";

export interface ApiData<T> {
  /** The last data read (or `set`); undefined before the first success. */
  data: T | undefined;
  /** The last read's failure, null once a read succeeds: show it, never drop it. */
  error: unknown;
  /** A read has finished at least once, well or not. */
  settled: boolean;
  /** Reads again (the failure stays shown until a read succeeds). */
  reload: () => Promise<void>;
  /** Replaces the data (a stream push). */
  set: (data: T) => void;
  /** Changes the data held (a push about one item of a list); nothing before the first read. */
  update: (change: (data: T) => T) => void;
}

interface ReadState<T> {
  data: T | undefined;
  error: unknown;
  settled: boolean;
}
const EMPTY: ReadState<never> = { data: undefined, error: null, settled: false };

/**
 * One API read for a component: reads when `enabled` turns on, whenever `load` changes
 * (pass a stable function, `useCallback` when it closes over props; the old data goes)
 * and whenever `version` changes (the data stays until the new answer). Keeps the failure
 * for the caller to show (`LoadError`) instead of swallowing it, and ignores answers
 * overtaken by a newer read. A caller abort is not a failure.
 */
export function useApiData<T>(load: () => Promise<T>, enabled = true, version: unknown = 0): ApiData<T> {
  const [state, setState] = useState<ReadState<T>>(EMPTY);
  const latest = useRef(0);

  const run = useCallback(async () => {
    if (!enabled) return;
    const id = ++latest.current;
    try {
      const data = await load();
      if (id === latest.current) setState({ data, error: null, settled: true });
    } catch (error) {
      if (id !== latest.current || (isApiError(error) && error.kind === "aborted")) return;
      setState((s) => ({ ...s, error, settled: true }));
    }
  }, [load, enabled]);

  // A new source (another account, another symbol, switched off): nothing of the old one is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset is for a new load or enabled
  useEffect(() => {
    latest.current += 1;
    // Already empty (the first mount): keep the object, so nothing re-renders for it.
    setState((s) => (s.data === undefined && s.error === null && !s.settled ? s : EMPTY));
  }, [load, enabled]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version reads again
  useEffect(() => {
    void run();
  }, [run, version]);

  const set = useCallback((data: T) => setState((s) => ({ ...s, data })), []);
  const update = useCallback(
    (change: (data: T) => T) => setState((s) => (s.data === undefined ? s : { ...s, data: change(s.data) })),
    [],
  );
  return { ...state, reload: run, set, update };
}

/** The first failure of several reads (null when none failed). */
export function firstError(...reads: readonly { error: unknown }[]): unknown {
  return reads.find((r) => r.error !== null)?.error ?? null;
}
