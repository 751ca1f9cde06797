import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS } from "@meridian/contracts/locales";
import { markSimulationMode } from "../features/shell/simulation.ts";
import {
  DOWNLOAD_BAR_HIDDEN_CLASS,
  DOWNLOAD_BAR_STORAGE_KEY,
  FIAT_STORAGE_KEY,
} from "../features/shell/storage-keys.ts";
import { writeCookie } from "../lib/cookies.ts";
import { THEME_COOKIE, THEME_COOKIE_MAX_AGE_SECONDS, THEME_STORAGE_KEY } from "../theme/theme.ts";

const store = (key: string, value: string): void => {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Blocked storage: the cookie (theme, language) or this page alone keeps the choice.
  }
};

const read = (key: string): string | null => {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
};

/**
 * The site shell without React (features/shell): the same behaviour as the hydrated
 * header, footer and download bar, through the markup they render.
 */
export function wireShell(root: Document): void {
  // Sections too wide for the header (a long language, a long account name): the clipped
  // end fades and the menu button shows too, as in the app (header.tsx, useOverflows).
  const header = root.querySelector<HTMLElement>(".shell-header");
  const nav = header?.querySelector<HTMLElement>(".shell-nav");
  if (header && nav && typeof ResizeObserver !== "undefined") {
    const measure = () => header.toggleAttribute("data-nav-overflow", nav.scrollWidth > nav.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(nav);
    if (nav.firstElementChild) observer.observe(nav.firstElementChild);
    // A web font arriving widens the labels without resizing the bar.
    root.fonts.addEventListener("loadingdone", measure);
    measure();
  }

  wireControls(root, root);

  // Dialogs (the phone menu, the legal notice): the button names its dialog.
  for (const opener of root.querySelectorAll<HTMLElement>("[aria-controls]")) {
    const dialog = root.getElementById(opener.getAttribute("aria-controls") ?? "");
    if (!(dialog instanceof HTMLDialogElement)) continue;
    opener.addEventListener("click", () => {
      const body = dialog.querySelector<HTMLTemplateElement>("template[data-menu-body]");
      if (body) {
        const content = body.content.cloneNode(true) as DocumentFragment;
        body.replaceWith(content);
        const scope = dialog.querySelector<HTMLElement>(".shell-sheet-body") ?? dialog;
        wireControls(root, scope);
      }
      dialog.showModal();
      opener.setAttribute("aria-expanded", "true");
    });
    dialog.addEventListener("close", () => {
      if (opener.hasAttribute("aria-expanded")) opener.setAttribute("aria-expanded", "false");
      opener.focus();
    });
    // A click on the backdrop lands on the dialog itself, outside its box.
    dialog.addEventListener("click", (event) => {
      const target = event.target as Element;
      if (target === dialog) {
        const box = dialog.getBoundingClientRect();
        const inside =
          event.clientX >= box.left &&
          event.clientX <= box.right &&
          event.clientY >= box.top &&
          event.clientY <= box.bottom;
        if (!inside) dialog.close();
      } else if (target.closest("[data-close]")) dialog.close();
    });
  }

  // Paper trading: its links mark the mode before the page changes, as in the app.
  root.addEventListener("click", (event) => {
    if ((event.target as Element | null)?.closest?.("a[data-simulation]")) markSimulationMode();
  });

  // The download bar: dismissed for good (the head script hides it from then on).
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-testid="download-bar-close"]')) {
    button.addEventListener("click", () => {
      root.documentElement.classList.add(DOWNLOAD_BAR_HIDDEN_CLASS);
      button.closest("aside")?.remove();
      store(DOWNLOAD_BAR_STORAGE_KEY, "false");
    });
  }
}

/**
 * The pickers, theme toggle and account menu found in `scope`: the header's, and the
 * phone menu's once it is first opened (its content waits in a `<template>` until then).
 */
function wireControls(root: Document, scope: ParentNode): void {
  // Language: the cookie, then the chosen language's address of this page (as the app does).
  for (const select of scope.querySelectorAll<HTMLSelectElement>('select[data-testid$="language-picker"]')) {
    select.addEventListener("change", () => {
      const path = select.selectedOptions[0]?.dataset.path;
      if (!path) return;
      writeCookie(LOCALE_COOKIE, select.value, LOCALE_COOKIE_MAX_AGE_SECONDS);
      const params = new URLSearchParams(window.location.search);
      params.set("locale", select.value);
      window.location.assign(`${path}?${params.toString()}${window.location.hash}`);
    });
  }

  // Fiat: the stored choice shows in every picker; a change is stored (docs/product.md §3).
  const fiatPickers = 'select[data-testid$="fiat-picker"]';
  const storedFiat = read(FIAT_STORAGE_KEY);
  for (const select of scope.querySelectorAll<HTMLSelectElement>(fiatPickers)) {
    if (storedFiat && [...select.options].some((o) => o.value === storedFiat)) select.value = storedFiat;
    select.addEventListener("change", () => {
      store(FIAT_STORAGE_KEY, select.value);
      for (const other of root.querySelectorAll<HTMLSelectElement>(fiatPickers)) other.value = select.value;
    });
  }

  // Theme: the cookie the server reads (and its local copy), then the page in that theme.
  for (const button of scope.querySelectorAll<HTMLButtonElement>('button[data-testid$="theme-toggle"]')) {
    button.addEventListener("click", () => {
      const next = root.documentElement.classList.contains("theme-black") ? "white" : "black";
      writeCookie(THEME_COOKIE, next, THEME_COOKIE_MAX_AGE_SECONDS);
      store(THEME_STORAGE_KEY, next);
      // `?appTheme=` would force the old theme again.
      const url = new URL(window.location.href);
      url.searchParams.delete("appTheme");
      window.location.replace(url.href);
    });
  }

  // The account menu (<details>): outside clicks and Escape close it; log out and switch back.
  for (const menu of scope.querySelectorAll<HTMLDetailsElement>("details.shell-user-menu")) {
    const close = (event: Event) => {
      if (!menu.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !menu.contains(event.target as Node))
        menu.open = false;
    };
    root.addEventListener("click", close);
    root.addEventListener("keydown", close);
  }
  for (const button of scope.querySelectorAll<HTMLButtonElement>('button[data-testid="logout"]')) {
    button.addEventListener("click", () => {
      void import("../api/account-client.ts")
        .then(({ accountClient }) => accountClient().logout())
        .finally(() => window.location.reload());
    });
  }
  for (const button of scope.querySelectorAll<HTMLButtonElement>('button[data-testid="switch-back"]')) {
    button.addEventListener("click", () => {
      void import("../api/subaccounts.ts")
        .then(({ switchBack }) => switchBack())
        .finally(() => window.location.reload());
    });
  }
}
