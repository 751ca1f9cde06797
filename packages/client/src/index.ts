export { ApiError, type ApiErrorKind, ClientMessage, isApiError } from "./api-error.ts";
export {
  type ApiClient,
  type ApiClientOptions,
  type CallOptions,
  createApiClient,
  type Getter,
  type HeaderMap,
  type HttpMethod,
  type ImageDomainOption,
  type OutgoingRequest,
  type QueryParams,
  REQUEST_TIMEOUT_MS,
  USER_INFO_API,
} from "./client.ts";
export { ClientHeader, ResponseHeader, TERMINAL_TYPE_WEB, WEBSITE } from "./headers.ts";
export {
  allowedImageHosts,
  DEFAULT_IMAGE_HOST,
  DOMAIN_CONFIG_API,
  type ImageDomainConfig,
  normalizeHost,
} from "./image-domain/hosts.ts";
export {
  FAST_IMAGE_DOMAIN_KEY,
  PROBE_IMAGE_ATTRIBUTE,
  PROBE_IMAGE_PATH,
  PROBE_TIMEOUT_MS,
  type ProbeOptions,
  probeFastestImageDomain,
  readFastImageDomain,
} from "./image-domain/probe.ts";
export { rewriteImageUrls } from "./image-domain/rewrite.ts";
export { installImageDomainSwapper } from "./image-domain/swapper.ts";
export { newRequestId } from "./request-id.ts";
export * from "./security/index.ts";
export { HOOK_THROTTLE_MS, throttle } from "./throttle.ts";
