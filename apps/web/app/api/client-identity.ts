import { TRACK_DEVICE_ID_COOKIE, TRACK_DEVICE_ID_STORAGE_KEY } from "@meridian/contracts";
import { DEFAULT_LOCALE } from "@meridian/contracts/locales";
import { APP_VERSION } from "../lib/app-version.ts";
import { readCookie } from "../lib/cookies.ts";

/** Local storage keys (docs/product.md §3, "Browser storage keys"). */
export const APP_VERSION_STORAGE_KEY = "appVersion";
export const TERMINAL_CODE_STORAGE_KEY = "terminalCode";

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function newTerminalCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The terminal code: 32 hex digits made once per browser profile and kept under its local
 * key, sent as `terminal-code` on every call. Without storage (private modes that refuse
 * it) the code lives as long as the tab.
 */
let memoryCode: string | undefined;
export function terminalCode(): string {
  const store = storage();
  let code = store?.getItem(TERMINAL_CODE_STORAGE_KEY) ?? memoryCode;
  if (!code) {
    code = newTerminalCode();
    try {
      store?.setItem(TERMINAL_CODE_STORAGE_KEY, code);
    } catch {
      // a full or refused storage keeps the code in memory
    }
  }
  memoryCode = code;
  return code;
}

/** Records the running app version under its local key (a later version sees what came before). */
export function storeAppVersion(): void {
  try {
    storage()?.setItem(APP_VERSION_STORAGE_KEY, APP_VERSION);
  } catch {
    // storage refused: nothing depends on the stored copy
  }
}

/**
 * The device id the tracking SDK resolved (its fingerprint), from local storage or its
 * cookie; undefined until the SDK has made one on the first visit.
 */
export function deviceId(): string | undefined {
  const stored = storage()?.getItem(TRACK_DEVICE_ID_STORAGE_KEY);
  if (stored) return stored;
  return readCookie(document.cookie, TRACK_DEVICE_ID_COOKIE) || undefined;
}

/** The page's locale: the root element's `data-locale`, which follows in-app locale changes. */
export function pageLocale(): string {
  return document.documentElement.dataset.locale || DEFAULT_LOCALE;
}
