import { createContext, useContext } from "react";
import { CONTENT_PAGE_HANDLE } from "./paint-first.ts";

/**
 * Pages that do not hydrate (docs/architecture.md, "Pages without hydration"): the server
 * renders them in full and the browser loads no React, no router and no page module, only
 * the islands bundle (app/islands/main.ts), plain DOM code that wires what is interactive
 * in that HTML (the header's menus and pickers, countdowns, accordions, the rating).
 * Navigating away is a full page load.
 */

/** A route module's `handle`: `{ hydrate: false }` says the page ships no app JavaScript. */
export interface IslandsRouteHandle {
  hydrate?: boolean;
}

/** Handle of the content pages served without hydration: no antd, no app bundle, islands only. */
export const ISLANDS_PAGE_HANDLE = {
  ...CONTENT_PAGE_HANDLE,
  hydrate: false,
} as const satisfies IslandsRouteHandle;

/** Whether the matched page hydrates: yes unless one of its routes says otherwise. */
export function routeHydrates(matches: readonly { handle?: unknown }[]): boolean {
  return !matches.some((m) => (m.handle as IslandsRouteHandle | undefined)?.hydrate === false);
}

/**
 * True while the server renders a page that will not hydrate: components render the
 * markup their island needs instead of relying on React state (a `<dialog>` instead of a
 * lazy antd Drawer, hidden screenshots in a `<template>`). False in the browser, so a
 * client-side navigation into such a route renders the app's own components.
 */
export const IslandsPageContext = createContext(false);

export function useIslandsPage(): boolean {
  return useContext(IslandsPageContext);
}

export { ISLANDS_READY_ATTRIBUTE } from "./islands-ready.ts";
