const PREFIX = "[meridian-tracker]";

let debugOn = false;

export function setDebug(on: boolean): void {
  debugOn = on;
}

/** Internal errors go here: never to the host page, printed only with `debug: true`. */
export function debug(...args: unknown[]): void {
  if (debugOn) console.debug(PREFIX, ...args);
}

/** What the spec asks to warn about (bad event id, upload or config failure): console only. */
export function warn(...args: unknown[]): void {
  try {
    console.warn(PREFIX, ...args);
  } catch {
    // a host that replaced console with something broken still must not see us throw
  }
}

/** Wraps a function so that it never throws into its caller. */
export function guard<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R | undefined {
  return (...args) => {
    try {
      return fn(...args);
    } catch (error) {
      debug(error);
      return undefined;
    }
  };
}

/** `n` random decimal digits, leading zeros kept. */
export function digits(n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += Math.floor(Math.random() * 10);
  return out;
}

export function now(): number {
  return Date.now();
}

export function parseJson<T>(text: string | null | undefined): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

function store(session?: boolean): Storage | undefined {
  try {
    return session ? sessionStorage : localStorage;
  } catch {
    return undefined;
  }
}

export function getItem(key: string, session?: boolean): string | null {
  try {
    return store(session)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/**
 * Writes a key; when the storage is full, removes every key starting with an
 * underscore (the site's disposable caches, docs/product.md §9) and tries once more.
 */
export function setItem(key: string, value: string, session?: boolean): boolean {
  const s = store(session);
  if (!s) return false;
  try {
    s.setItem(key, value);
    return true;
  } catch {
    try {
      for (let i = s.length - 1; i >= 0; i--) {
        const k = s.key(i);
        if (k?.startsWith("_")) s.removeItem(k);
      }
      s.setItem(key, value);
      return true;
    } catch (error) {
      debug("storage full", error);
      return false;
    }
  }
}

export function removeItem(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // storage unavailable: nothing was stored either
  }
}

export function readCookie(name: string): string {
  try {
    const match = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
    return match?.[1] ? decodeURIComponent(match[1]) : "";
  } catch {
    return "";
  }
}

export function queryParam(name: string): string {
  try {
    return new URLSearchParams(location.search).get(name) ?? "";
  } catch {
    return "";
  }
}

/** UTF-8 length of a string. */
export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
