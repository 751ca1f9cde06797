/**
 * Default static-image host (docs/product.md §9), used when the server lists no
 * candidates and always part of the hosts that may be swapped.
 */
export const DEFAULT_IMAGE_HOST = "img.meridian-static.com";

/** The domain-config call; its answer lists the hosts and is never rewritten. */
export const DOMAIN_CONFIG_API = "v1/mix/system/getDomainConfigList";

/** `imgDomainConfig` in the domain-config answer (docs/product.md §7). */
export interface ImageDomainConfig {
  foreignDomainList?: readonly string[] | null;
  internalDomainList?: readonly string[] | null;
}

/**
 * `img.example.com`, `https://img.example.com/`, `//IMG.example.com` all name the
 * same host; returns "" for anything without a usable host.
 */
export function normalizeHost(value: string): string {
  const trimmed = value.trim();
  if (trimmed === "") return "";
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)
    ? trimmed
    : `https://${trimmed.replace(/^\/+/, "")}`;
  try {
    return new URL(withScheme).host.toLowerCase();
  } catch {
    return "";
  }
}

/** Allowed image hosts: the server's lists merged with the default host, normalised and deduplicated. */
export function allowedImageHosts(
  config: ImageDomainConfig | null | undefined,
  defaultHost: string = DEFAULT_IMAGE_HOST,
): string[] {
  const all = [...(config?.foreignDomainList ?? []), ...(config?.internalDomainList ?? []), defaultHost];
  return [...new Set(all.map(normalizeHost).filter((h) => h !== ""))];
}
