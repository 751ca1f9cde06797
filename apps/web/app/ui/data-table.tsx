import type { ReactNode } from "react";
import { Loading } from "./loading.tsx";

export interface Column<T> {
  key: string;
  title: ReactNode;
  render: (row: T) => ReactNode;
}

/** A plain table on the spot screen's styles (trade.css); antd's Table has no server-extracted stylesheet. */
export function DataTable<T>({
  rows,
  rowKey,
  columns,
  empty,
  testId,
  rowAttrs,
  loading = false,
}: {
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly Column<T>[];
  empty: string;
  testId?: string;
  rowAttrs?: (row: T) => Record<`data-${string}`, string>;
  /** The rows are still being read: a placeholder instead of `empty` (rows already held still show). */
  loading?: boolean;
}) {
  return (
    <div className="trade-table-wrap">
      <table className="trade-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key}>{c.title}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="trade-empty">
                {loading ? <Loading /> : empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} {...rowAttrs?.(row)}>
                {columns.map((c) => (
                  <td key={c.key}>{c.render(row)}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
