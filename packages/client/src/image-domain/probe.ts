import { DEFAULT_IMAGE_HOST, normalizeHost } from "./hosts.ts";

/**
 * Local-storage key for the fastest image host (docs/product.md §3, "fastest image
 * domain"). NOTE: the web app's storage-key list must use the same name.
 */
export const FAST_IMAGE_DOMAIN_KEY = "fastImgDomain";

/** Marks probe images so the swapper never rewrites them. */
export const PROBE_IMAGE_ATTRIBUTE = "data-image-probe";

/** A tiny image every candidate host serves. */
export const PROBE_IMAGE_PATH = "/static/probe.png";

export const PROBE_TIMEOUT_MS = 5000;

export interface ProbeOptions {
  /** Loads one image URL; resolves when it loaded. Defaults to an `<img>` element. */
  loadImage?: (url: string) => Promise<unknown>;
  /** A probe slower than this counts as failed. */
  timeoutMs?: number;
  /** Where the winner is stored; defaults to `localStorage` when there is one, `null` skips storing. */
  storage?: Pick<Storage, "setItem"> | null;
  defaultHost?: string;
  probePath?: string;
}

/**
 * Finds the image host that answers first (docs/product.md §4, "Image domain"): loads
 * `https://{host}{probePath}?t={random}` from every candidate at once; the first
 * to load wins and is stored under `fastImgDomain`. One candidate is used without
 * probing; no candidates yields the default host; rejects when every probe fails.
 */
export async function probeFastestImageDomain(
  hosts: readonly string[],
  options: ProbeOptions = {},
): Promise<string> {
  const candidates = [...new Set(hosts.map(normalizeHost).filter((h) => h !== ""))];
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const remember = (host: string): string => {
    try {
      storage?.setItem(FAST_IMAGE_DOMAIN_KEY, host);
    } catch {
      // Storage full or blocked (private mode): the probe result is still usable.
    }
    return host;
  };

  const [only, ...rest] = candidates;
  if (only === undefined) return remember(normalizeHost(options.defaultHost ?? DEFAULT_IMAGE_HOST));
  if (rest.length === 0) return remember(only);

  const load = options.loadImage ?? loadImageElement;
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const path = options.probePath ?? PROBE_IMAGE_PATH;
  try {
    const winner = await Promise.any(
      candidates.map(async (host) => {
        await withTimeout(load(`https://${host}${path}?t=${randomToken()}`), timeoutMs);
        return host;
      }),
    );
    return remember(winner);
  } catch (error) {
    throw new Error(`No image domain answered (${candidates.join(", ")})`, { cause: error });
  }
}

/** The stored fastest host, or null. */
export function readFastImageDomain(
  storage: Pick<Storage, "getItem"> | null = defaultStorage(),
): string | null {
  try {
    const value = storage?.getItem(FAST_IMAGE_DOMAIN_KEY);
    return value ? value : null;
  } catch {
    return null;
  }
}

function defaultStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

function randomToken(): string {
  return Math.random().toString(36).slice(2, 10);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`image probe timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function loadImageElement(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.setAttribute(PROBE_IMAGE_ATTRIBUTE, "");
    img.onload = () => resolve();
    img.onerror = () => reject(new Error(`image probe failed: ${url}`));
    img.src = url;
  });
}
