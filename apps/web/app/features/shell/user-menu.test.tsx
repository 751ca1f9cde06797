// @vitest-environment jsdom
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createI18n } from "../../i18n/i18n.ts";
import { UserMenu } from "./user-menu.tsx";

const i18n = createI18n({
  lng: "en",
  bundles: {
    shell: {
      header: {
        account: "Signed in as {{name}}",
        overview: "Account overview",
        security: "Security",
        apiKeys: "API keys",
        logout: "Log out",
        subAccounts: "Sub-accounts",
        switchBack: "Back to main account",
        inSub: "Sub-account",
      },
      nav: { assets: "Assets" },
    },
  },
});
const user = { userId: "1234567890", loginName: "jane@example.com" };

let host: HTMLDivElement;
let root: Root;
beforeEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

function render(props: Partial<Parameters<typeof UserMenu>[0]>) {
  act(() =>
    root.render(
      createElement(
        I18nextProvider,
        { i18n },
        createElement(UserMenu, { locale: "ja", user, onNavigate: vi.fn(), ...props }),
      ),
    ),
  );
}

describe("UserMenu", () => {
  it("shows the user and localised links; logs out through the host's callback and closes", () => {
    const onLogout = vi.fn();
    const onNavigate = vi.fn();
    render({ onLogout, onNavigate });
    const details = host.querySelector("details");
    expect(host.querySelector("[data-testid=user-name]")?.textContent).toContain("jane@example.com");
    expect([...host.querySelectorAll("a")].map((a) => a.getAttribute("href"))).toEqual([
      "/ja/account/overview",
      "/ja/asset",
      "/ja/account/security",
      "/ja/account/newapi",
      "/ja/subaccount/manage",
    ]);
    expect(host.querySelector("[data-testid=in-sub-account]")).toBeNull();
    if (details) details.open = true;
    act(() => host.querySelector<HTMLButtonElement>("[data-testid=logout]")?.click());
    expect(onLogout).toHaveBeenCalledOnce();
    expect(details?.open).toBe(false);

    if (details) details.open = true;
    act(() => host.querySelector("a")?.click());
    expect(onNavigate).toHaveBeenCalledWith("/ja/account/overview", "account");
    expect(details?.open).toBe(false);
  });

  it("has no logout without a host callback (embeds that cannot log out), and closes on Escape", () => {
    render({});
    expect(host.querySelector("[data-testid=logout]")).toBeNull();
    const details = host.querySelector("details");
    if (details) details.open = true;
    act(() => document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" })));
    expect(details?.open).toBe(false);
  });

  it("inside a sub-account: marks it and offers the way back instead of the sub-account page", () => {
    const onSwitchBack = vi.fn();
    render({ user: { ...user, subAccount: true }, onSwitchBack });
    expect(host.querySelector("[data-testid=in-sub-account]")?.textContent).toBe("Sub-account");
    expect([...host.querySelectorAll("a")].map((a) => a.getAttribute("href"))).not.toContain(
      "/ja/subaccount/manage",
    );
    const details = host.querySelector("details");
    if (details) details.open = true;
    act(() => host.querySelector<HTMLButtonElement>("[data-testid=switch-back]")?.click());
    expect(onSwitchBack).toHaveBeenCalledOnce();
    expect(details?.open).toBe(false);
  });
});
