import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/i18n.ts";
import { AccountTablesBody } from "./panel-parts.tsx";

const i18n = createI18n({
  lng: "en",
  bundles: {
    shell: { loading: "Loading…", loadError: { title: "Some data could not be loaded.", retry: "Retry" } },
    trade: { orders: { loginFirst: "Log in", simFirst: "Enter simulation" } },
  },
});

const html = (props: Partial<Parameters<typeof AccountTablesBody>[0]>) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <AccountTablesBody access="ready" error={null} onRetry={() => undefined} {...props}>
        <p>No open orders</p>
      </AccountTablesBody>
    </I18nextProvider>,
  );

describe("AccountTablesBody", () => {
  it("shows a placeholder, not the empty tables, until the lists are read", () => {
    const out = html({ loading: true });
    expect(out).toContain('data-testid="account-tables-loading"');
    expect(out).not.toContain("No open orders");
    expect(html({ loading: false })).toContain("No open orders");
  });

  it("shows a failed read with its retry instead of a placeholder that never ends", () => {
    const out = html({ loading: true, loadError: new Error("down") });
    expect(out).toContain('data-testid="load-error"');
    expect(out).toContain("Retry");
    expect(out).not.toContain("account-tables-loading");
  });
});
