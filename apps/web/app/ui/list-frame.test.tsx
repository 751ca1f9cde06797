// @vitest-environment jsdom
import { act, createElement, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createI18n } from "../i18n/i18n.ts";
import { ListFrame, type ListRead, useListAction } from "./list-frame.tsx";

// React warns when an update is not wrapped in act() unless this flag says we are testing.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const i18n = createI18n({
  lng: "en",
  bundles: { shell: { loading: "Loading…", loadError: { title: "Could not load", retry: "Retry" } } },
});

interface Key {
  id: string;
  name: string;
}

let host: HTMLDivElement;
let root: Root;
beforeEach(() => {
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

const render = (node: ReactNode) => act(() => root.render(createElement(I18nextProvider, { i18n }, node)));
const byTestId = (id: string) => host.querySelector(`[data-testid="${id}"]`);
const read = (o: Partial<ListRead> = {}): ListRead => ({
  error: null,
  settled: true,
  reload: async () => {},
  ...o,
});

function frame(items: readonly Key[] | undefined, o: Partial<Parameters<typeof ListFrame<Key>>[0]> = {}) {
  return createElement(ListFrame<Key>, {
    read: read(),
    items,
    itemKey: (k) => k.id,
    itemProps: (k) => ({ "data-testid": "key-item", "data-id": k.id }),
    renderItem: (k) => k.name,
    empty: "No keys yet",
    testId: "keys",
    ...o,
  });
}

describe("ListFrame", () => {
  it("shows a busy placeholder, not the empty text, until the first answer", () => {
    render(frame(undefined, { read: read({ settled: false }) }));
    expect(byTestId("loading")?.getAttribute("aria-busy")).toBe("true");
    expect(host.textContent).not.toContain("No keys yet");
    expect(byTestId("keys-list")).toBeNull();
  });

  it("says it is empty once read, and lists the items with their attributes", () => {
    render(frame([]));
    expect(host.textContent).toContain("No keys yet");
    expect(byTestId("loading")).toBeNull();
    render(
      frame([
        { id: "a", name: "laptop" },
        { id: "b", name: "phone" },
      ]),
    );
    const items = [...host.querySelectorAll('[data-testid="keys-list"] > li[data-testid="key-item"]')];
    expect(items.map((li) => [li.getAttribute("data-id"), li.textContent])).toEqual([
      ["a", "laptop"],
      ["b", "phone"],
    ]);
    expect(host.textContent).not.toContain("No keys yet");
  });

  it("shows a failed read with a retry that reads again, and no placeholder", async () => {
    let reads = 0;
    render(
      frame(undefined, {
        read: read({
          error: new Error("down"),
          reload: async () => {
            reads += 1;
          },
        }),
      }),
    );
    expect(byTestId("load-error")?.textContent).toContain("Could not load");
    expect(byTestId("loading")).toBeNull();
    await act(async () => host.querySelector<HTMLButtonElement>(".load-error-retry")?.click());
    expect(reads).toBe(1);
  });

  it("shows the last action's notice or error under their test ids", () => {
    render(frame([], { notice: "Key removed." }));
    expect(byTestId("keys-notice")?.textContent).toContain("Key removed.");
    render(frame([], { error: "Not allowed", errorTestId: "keys-remove-error" }));
    expect(byTestId("keys-notice")).toBeNull();
    expect(byTestId("keys-remove-error")?.textContent).toContain("Not allowed");
  });
});

/** A list of one button that runs `step` through the hook, with the frame showing the outcome. */
function Harness({ step, reload }: { step: () => Promise<string>; reload: () => Promise<void> }) {
  const action = useListAction(reload, (err) => `Failed: ${(err as Error).message}`);
  return createElement(
    "div",
    null,
    createElement(ListFrame<Key>, {
      read: read({ reload }),
      items: [],
      itemKey: (k) => k.id,
      renderItem: (k) => k.name,
      empty: "none",
      notice: action.notice,
      error: action.error,
      testId: "keys",
    }),
    createElement(
      "button",
      { type: "button", disabled: action.busy, onClick: () => void action.run(step) },
      "go",
    ),
  );
}

describe("useListAction", () => {
  it("is busy while a step runs, reads the list again, then shows its notice", async () => {
    let finish: (text: string) => void = () => {};
    let reloaded: () => void = () => {};
    let reloads = 0;
    const step = () =>
      new Promise<string>((resolve) => {
        finish = resolve;
      });
    const reload = () =>
      new Promise<void>((resolve) => {
        reloads += 1;
        reloaded = resolve;
      });
    render(createElement(Harness, { step, reload }));
    const button = host.querySelector("button") as HTMLButtonElement;
    await act(async () => button.click());
    expect(button.disabled).toBe(true);
    expect(reloads).toBe(0);
    await act(async () => finish("Done."));
    // The step is done and the list is being read: no notice yet, still busy.
    expect(reloads).toBe(1);
    expect(byTestId("keys-notice")).toBeNull();
    expect(button.disabled).toBe(true);
    await act(async () => reloaded());
    expect(button.disabled).toBe(false);
    expect(byTestId("keys-notice")?.textContent).toContain("Done.");
  });

  it("words a failure with describe, clears the previous notice, and does not read again", async () => {
    let reloads = 0;
    let fail = false;
    const step = async () => {
      if (fail) throw new Error("step-up refused");
      return "Added.";
    };
    render(
      createElement(Harness, {
        step,
        reload: async () => {
          reloads += 1;
        },
      }),
    );
    const button = host.querySelector("button") as HTMLButtonElement;
    await act(async () => button.click());
    expect(byTestId("keys-notice")?.textContent).toContain("Added.");
    fail = true;
    await act(async () => button.click());
    expect(byTestId("keys-notice")).toBeNull();
    expect(byTestId("keys-error")?.textContent).toContain("Failed: step-up refused");
    expect(reloads).toBe(1);
    expect(button.disabled).toBe(false);
  });
});
