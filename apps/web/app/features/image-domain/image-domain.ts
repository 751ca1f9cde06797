import {
  allowedImageHosts,
  createApiClient,
  DOMAIN_CONFIG_API,
  type ImageDomainConfig,
  installImageDomainSwapper,
  type ProbeOptions,
  probeFastestImageDomain,
} from "@meridian/client";
import { domainConfigListSchema } from "@meridian/contracts";

export interface ImageDomainDeps {
  fetch?: typeof globalThis.fetch;
  /** Where the swapper looks for images; default `document`. */
  root?: Document | Element;
  /** Probe options (image loader, storage, time-out); the defaults use `<img>` and localStorage. */
  probe?: ProbeOptions;
  logger?: Pick<Console, "warn">;
}

/** The image hosts the server lists (`imgDomainConfig`); throws when the call fails. */
export async function fetchImageDomainConfig(doFetch?: typeof globalThis.fetch): Promise<ImageDomainConfig> {
  // A client of its own: the image swap starts on every page, before the account client.
  const client = createApiClient(doFetch === undefined ? {} : { fetch: doFetch });
  const data = await client.get(DOMAIN_CONFIG_API, undefined, {
    schema: domainConfigListSchema,
    silent: true,
  });
  return data.imgDomainConfig;
}

/**
 * The image-domain start-up of docs/product.md §4, run once in the browser after hydration:
 * fetch the candidate hosts, probe them (the winner is stored as the fastest image
 * domain, which the API client then sends as `x-fast-img-domain`), and move images on
 * any allowed host to it: those still loading now, and any that fail later. Resolves
 * with the function that removes the swapper. Never throws: images stay as they are
 * when the config call or every probe fails.
 */
export async function startImageDomain(deps: ImageDomainDeps = {}): Promise<() => void> {
  const logger = deps.logger ?? console;
  try {
    const config = await fetchImageDomainConfig(deps.fetch);
    const candidates = [...(config.foreignDomainList ?? []), ...(config.internalDomainList ?? [])];
    const fastHost = await probeFastestImageDomain(candidates, deps.probe);
    return installImageDomainSwapper(deps.root ?? document, fastHost, allowedImageHosts(config));
  } catch (error) {
    logger.warn("image domain: keeping the original image hosts", error);
    return () => {};
  }
}
