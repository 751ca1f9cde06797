import { Alert, Empty } from "antd";
import { type ReactNode, useCallback, useRef, useState } from "react";
import { LoadError } from "./load-error.tsx";
import { Loading } from "./loading.tsx";

/** The read a list shows (`useApiData` answers it). */
export interface ListRead {
  /** The last read's failure (null once one succeeds): shown with a retry. */
  error: unknown;
  /** A read has finished at least once: until then a placeholder, never the empty text. */
  settled: boolean;
  reload: () => Promise<void>;
}

export interface ListFrameProps<T> {
  read: ListRead;
  /** The items read; undefined until the first answer. */
  items: readonly T[] | undefined;
  itemKey: (item: T) => string;
  /** One item's content: a `<li>` of the frame's `<ul>` (`itemProps` adds to it). */
  renderItem: (item: T) => ReactNode;
  /** Attributes of an item's `<li>` (test id, data attributes, a class). */
  itemProps?: (item: T) => Record<string, string | boolean | undefined>;
  /** What an empty list says. */
  empty: ReactNode;
  /** The last action's outcome (`useListAction`). */
  notice?: string | undefined;
  error?: string | undefined;
  /** Test ids: `<testId>-notice`, `<testId>-error` (or `errorTestId`), `<testId>-list`. */
  testId: string;
  errorTestId?: string;
}

/**
 * A list of things the user manages (passkeys, linked sign-ins, devices): the read's
 * failure with its retry, a placeholder until the first answer, the last action's notice
 * or error, then the items or the empty text.
 */
export function ListFrame<T>({
  read,
  items,
  itemKey,
  renderItem,
  itemProps,
  empty,
  notice,
  error,
  testId,
  errorTestId,
}: ListFrameProps<T>) {
  return (
    <>
      <LoadError error={read.error} onRetry={() => void read.reload()} />
      {!read.settled && <Loading />}
      {notice && (
        <Alert type="success" title={notice} data-testid={`${testId}-notice`} style={{ marginBottom: 12 }} />
      )}
      {error && (
        <Alert
          type="error"
          title={error}
          data-testid={errorTestId ?? `${testId}-error`}
          style={{ marginBottom: 12 }}
        />
      )}
      {items !== undefined &&
        (items.length === 0 ? (
          <Empty description={empty} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <ul className="ui-list" data-testid={`${testId}-list`}>
            {items.map((item) => (
              <li key={itemKey(item)} {...itemProps?.(item)}>
                {renderItem(item)}
              </li>
            ))}
          </ul>
        ))}
    </>
  );
}

export interface ListAction {
  /** An action is running: its buttons are disabled. */
  busy: boolean;
  notice: string | undefined;
  error: string | undefined;
  /**
   * Runs one action: clears the last outcome, then reads the list again and shows the
   * notice `step` answered (so a shown notice means the list is current), or the error
   * `describe` makes of its failure.
   */
  run: (step: () => Promise<string>) => Promise<void>;
}

/**
 * The state of a list's actions (add, remove, revoke) for `ListFrame`. `reload` reads the
 * list again after an action; `describe` words a failure (the latest of each is used).
 */
export function useListAction(reload: () => Promise<void>, describe: (err: unknown) => string): ListAction {
  const latest = useRef({ reload, describe });
  latest.current = { reload, describe };
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const run = useCallback(async (step: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      const done = await step();
      // The notice comes with the list read again: once it shows, the list is current.
      await latest.current.reload();
      setNotice(done);
    } catch (err) {
      setError(latest.current.describe(err));
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, notice, error, run };
}
