// @vitest-environment jsdom
import { createApiClient } from "@meridian/client";
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createSimulationController,
  isSimulationActive,
  type SimulationEnv,
} from "./simulation-controller.ts";
import { SimulationProvider, useSimulation } from "./simulation-provider.tsx";

const KEY = "simulation-trade";

function env(pathname: string) {
  const calls: Array<[string, { replace: boolean }]> = [];
  const reload = vi.fn();
  let path = pathname;
  const e: SimulationEnv = {
    storage: () => window.localStorage,
    pathname: () => path,
    navigate: (to, options) => {
      calls.push([to, options]);
      path = to;
    },
    reload,
  };
  return { e, calls, reload, setPath: (p: string) => (path = p) };
}

beforeEach(() => window.localStorage.clear());

describe("simulation controller", () => {
  it("enter sets the flag and opens the language-prefixed spot or futures page", () => {
    const { e, calls } = env("/ja/airdrops");
    const c = createSimulationController(e);
    c.enter();
    expect(window.localStorage.getItem(KEY)).toBe("1");
    expect(calls).toEqual([["/ja/spot/BTCUSDT", { replace: false }]]);
    c.enter("futures");
    expect(calls[1]).toEqual(["/ja/futures/usdt/BTCUSDT", { replace: false }]);
    expect(c.isActive()).toBe(true);
  });

  it.each([
    ["/futures/usdt/ETHUSDT", "/futures/usdt/BTCUSDT"],
    ["/ar/trade-swap", "/ar/futures/usdt/BTCUSDT"],
    ["/ja/trade-spot", "/ja/spot/BTCUSDT"],
  ])("enter from %s opens %s", (from, to) => {
    const { e, calls } = env(from);
    createSimulationController(e).enter();
    expect(calls).toEqual([[to, { replace: false }]]);
  });

  it("enter on the margin screen stays there (no navigation) with the flag on", () => {
    const { e, calls } = env("/ar/trade-margin/BTCUSDT");
    const c = createSimulationController(e);
    c.enter();
    expect(calls).toEqual([]);
    expect(c.isActive()).toBe(true);
    expect(c.guard()).toBe(false);
  });

  it("exit clears the flag and reloads", () => {
    window.localStorage.setItem(KEY, "1");
    const { e, reload } = env("/spot/BTCUSDT");
    createSimulationController(e).exit();
    expect(window.localStorage.getItem(KEY)).toBeNull();
    expect(reload).toHaveBeenCalledOnce();
  });

  it("guards navigation: only with the flag on, only off the allowed list, replacing history", () => {
    const { e, calls } = env("/");
    const c = createSimulationController(e);
    expect(c.guard("/airdrops")).toBe(false);
    window.localStorage.setItem(KEY, "1");
    expect(c.guard("/fee")).toBe(false);
    expect(c.guard("/bg/trade-spot/x")).toBe(false);
    expect(c.guard("/bg/airdrops")).toBe(true);
    expect(c.guard("/transaction")).toBe(true);
    // Logging in and switching accounts keep the flag: the user is not sent away from them.
    expect(c.guard("/login")).toBe(false);
    expect(c.guard("/ar/subaccount/manage")).toBe(false);
    expect(calls).toEqual([
      ["/bg/spot/BTCUSDT", { replace: true }],
      ["/spot/BTCUSDT", { replace: true }],
    ]);
  });

  it("follows another tab: reload when cleared or set on an allowed page, redirect when set elsewhere", () => {
    const cases: Array<{
      path: string;
      old: string | null;
      next: string | null;
      key?: string | null;
      want: string;
    }> = [
      { path: "/spot/ETHUSDT", old: null, next: "1", want: "reload" },
      { path: "/airdrops", old: null, next: "1", want: "/spot/BTCUSDT" },
      { path: "/de/airdrops", old: null, next: "1", want: "/de/spot/BTCUSDT" },
      { path: "/spot/ETHUSDT", old: "1", next: null, want: "reload" },
      { path: "/airdrops", old: "1", next: null, want: "reload" },
      { path: "/airdrops", old: "1", next: null, key: null, want: "reload" },
      { path: "/airdrops", old: "1", next: "1", want: "nothing" },
      { path: "/airdrops", old: null, next: "1", key: "theme", want: "nothing" },
    ];
    for (const k of cases) {
      const { e, calls, reload } = env(k.path);
      createSimulationController(e).onStorage({
        key: k.key === undefined ? KEY : k.key,
        oldValue: k.old,
        newValue: k.next,
      });
      const got = reload.mock.calls.length > 0 ? "reload" : (calls[0]?.[0] ?? "nothing");
      expect(got, JSON.stringify(k)).toBe(k.want);
      if (calls[0]) expect(calls[0][1]).toEqual({ replace: true });
    }
  });

  it("feeds the API client's simulation getter: paptrading: 1 only while the flag is on", async () => {
    const sent: Array<Record<string, string>> = [];
    const fetchMock = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      sent.push(init?.headers as Record<string, string>);
      return new Response(JSON.stringify({ code: "00000", msg: "ok", data: 1 }), {
        headers: { "content-type": "application/json" },
      });
    });
    const api = createApiClient({
      fetch: fetchMock as typeof globalThis.fetch,
      simulation: () => isSimulationActive(),
    });
    await api.get("v1/market/tickers");
    window.localStorage.setItem(KEY, "1");
    await api.get("v1/market/tickers");
    expect(sent[0]?.paptrading).toBeUndefined();
    expect(sent[1]?.paptrading).toBe("1");
  });
});

function Probe() {
  const { active, enter } = useSimulation();
  const location = useLocation();
  return createElement(
    "button",
    {
      type: "button",
      "data-active": String(active),
      "data-path": location.pathname,
      onClick: () => enter(),
    },
    "go",
  );
}

describe("SimulationProvider", () => {
  let root: Root;
  let host: HTMLDivElement;
  const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };

  beforeEach(() => {
    g.IS_REACT_ACT_ENVIRONMENT = true;
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  function mount(path: string) {
    const router = createMemoryRouter(
      [{ path: "*", element: createElement(SimulationProvider, null, createElement(Probe)) }],
      { initialEntries: [path] },
    );
    act(() => root.render(createElement(RouterProvider, { router })));
    return router;
  }

  const probe = () => host.querySelector("button") as HTMLButtonElement;

  it("redirects a disallowed page to the spot page on load and on every navigation while on", async () => {
    window.localStorage.setItem(KEY, "1");
    const router = mount("/ja/airdrops");
    expect(router.state.location.pathname).toBe("/ja/spot/BTCUSDT");
    expect(probe().dataset.active).toBe("true");
    await act(() => router.navigate("/ja/fee"));
    expect(router.state.location.pathname).toBe("/ja/fee");
    await act(() => router.navigate("/ja/telegram-apps"));
    expect(router.state.location.pathname).toBe("/ja/spot/BTCUSDT");
  });

  it("leaves every page alone while off; enter turns it on and opens the spot page", () => {
    const router = mount("/de/airdrops");
    expect(router.state.location.pathname).toBe("/de/airdrops");
    expect(probe().dataset.active).toBe("false");
    act(() => probe().click());
    expect(window.localStorage.getItem(KEY)).toBe("1");
    expect(router.state.location.pathname).toBe("/de/spot/BTCUSDT");
    expect(probe().dataset.active).toBe("true");
  });

  it("enter on the margin screen keeps the page (and its query) and turns the mode on", () => {
    const router = mount("/ar/trade-margin/ETHUSDT?mode=isolated");
    const before = router.state.historyAction;
    act(() => probe().click());
    expect(window.localStorage.getItem(KEY)).toBe("1");
    expect(router.state.location.pathname).toBe("/ar/trade-margin/ETHUSDT");
    expect(router.state.location.search).toBe("?mode=isolated");
    expect(router.state.historyAction).toBe(before);
    expect(probe().dataset.active).toBe("true");
  });

  it("redirects when another tab turns the flag on while this one shows a disallowed page", () => {
    const router = mount("/airdrops");
    window.localStorage.setItem(KEY, "1");
    act(() => {
      window.dispatchEvent(new StorageEvent("storage", { key: KEY, oldValue: null, newValue: "1" }));
    });
    expect(router.state.location.pathname).toBe("/spot/BTCUSDT");
  });
});
