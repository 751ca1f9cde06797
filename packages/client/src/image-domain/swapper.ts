import { normalizeHost } from "./hosts.ts";
import { PROBE_IMAGE_ATTRIBUTE } from "./probe.ts";

/**
 * Moves images under `root` to the fast host (docs/product.md §4): images that have
 * not finished loading are switched now, and any image that fails to load later
 * is switched when its `error` event fires. Probe images (marked with
 * `data-image-probe`) and images on hosts outside `allowedHosts` are left alone.
 * Returns a function that removes the error listener.
 */
export function installImageDomainSwapper(
  root: Document | Element,
  fastHost: string,
  allowedHosts: readonly string[],
): () => void {
  const target = normalizeHost(fastHost);
  const allowed = new Set(allowedHosts.map(normalizeHost).filter((h) => h !== "" && h !== target));
  if (target === "" || allowed.size === 0) return () => {};

  const swap = (img: HTMLImageElement): void => {
    if (img.hasAttribute(PROBE_IMAGE_ATTRIBUTE)) return;
    const src = img.getAttribute("src");
    if (!src) return;
    let url: URL;
    try {
      url = new URL(src, img.baseURI);
    } catch {
      return;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return;
    if (!allowed.has(url.host.toLowerCase())) return;
    url.protocol = "https:";
    url.host = target;
    img.setAttribute("src", url.href);
  };

  for (const img of Array.from(root.querySelectorAll("img"))) {
    if (!img.complete) swap(img);
  }

  // `error` does not bubble, so listen in the capture phase.
  const onError = (event: Event): void => {
    const el = event.target;
    if (isImage(el)) swap(el);
  };
  root.addEventListener("error", onError, true);
  return () => root.removeEventListener("error", onError, true);
}

// `instanceof HTMLImageElement` fails across frames and in non-DOM test realms.
function isImage(value: EventTarget | null): value is HTMLImageElement {
  return value !== null && (value as Partial<Element>).tagName === "IMG";
}
