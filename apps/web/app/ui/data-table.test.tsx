import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../i18n/i18n.ts";
import { type Column, DataTable } from "./data-table.tsx";

const i18n = createI18n({ lng: "en", bundles: { shell: { loading: "Loading…" } } });
interface Row {
  id: string;
  amount: string;
}
const columns: Column<Row>[] = [{ key: "amount", title: "Amount", render: (r) => r.amount }];

const html = (rows: Row[], loading?: boolean) =>
  renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(DataTable<Row>, {
        rows,
        rowKey: (r) => r.id,
        columns,
        empty: "No orders",
        ...(loading === undefined ? {} : { loading }),
      }),
    ),
  );

describe("DataTable", () => {
  it("shows a busy placeholder, not the empty text, while the rows are read", () => {
    const out = html([], true);
    expect(out).toContain('aria-busy="true"');
    expect(out).toContain("Loading…");
    expect(out).not.toContain("No orders");
  });

  it("says it is empty once read, and shows rows already held during a read", () => {
    expect(html([])).toContain("No orders");
    expect(html([], false)).not.toContain("aria-busy");
    const held = html([{ id: "1", amount: "0.5" }], true);
    expect(held).toContain("0.5");
    expect(held).not.toContain("aria-busy");
  });
});
