import type { ApiClientOptions, HeaderMap, OutgoingRequest } from "@meridian/client";
import { readFastImageDomain } from "@meridian/client";
import { Header } from "@meridian/contracts/http";

type BeforeSend = NonNullable<ApiClientOptions["beforeSend"]>;

/**
 * Wraps the API client's `beforeSend` so every request names the stored fastest image
 * host in `x-fast-img-domain`; the server then rewrites image URLs in its JSON answers
 * to that host (docs/product.md §4 and §7). Read per request: the probe may finish after
 * the client was made.
 */
export function withFastImageDomain(
  beforeSend?: BeforeSend,
  read: () => string | null = () => readFastImageDomain(),
): BeforeSend {
  return async (request: OutgoingRequest): Promise<HeaderMap | undefined> => {
    const extra = await beforeSend?.(request);
    const host = read();
    if (!host) return extra;
    return { ...extra, [Header.FAST_IMG_DOMAIN]: host };
  };
}
