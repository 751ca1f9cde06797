import {
  DEFAULT_LOCALE,
  FORCED_LOGOUT_CODES,
  getLocale,
  isSuccessCode,
  SIGN_ERROR_CODES,
} from "@meridian/contracts";
import type { ZodType } from "zod";
import { ApiError, type ApiErrorInit, ClientMessage } from "./api-error.ts";
import { ClientHeader as Header, TERMINAL_TYPE_WEB, WEBSITE } from "./headers.ts";
import { DOMAIN_CONFIG_API } from "./image-domain/hosts.ts";
import { rewriteImageUrls } from "./image-domain/rewrite.ts";
import { newRequestId } from "./request-id.ts";
import { HOOK_THROTTLE_MS, throttle } from "./throttle.ts";

/** docs/product.md §9: request timeout. */
export const REQUEST_TIMEOUT_MS = 20_000;

/** The user-info call never triggers a forced logout: it is how the app learns it is logged out. */
export const USER_INFO_API = "v1/user/overview/userinfo";

/** A value, or a getter read on every request (locale, simulation flag, ... change at runtime). */
export type Getter<T> = T | (() => T);

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Readonly<Record<string, QueryValue | readonly QueryValue[]>>;
export type HeaderMap = Readonly<Record<string, string>>;
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** What the hooks see of a request about to be sent. */
export interface OutgoingRequest {
  readonly method: HttpMethod;
  /** The api name without a leading slash, e.g. `v1/user/overview/userinfo`. */
  readonly api: string;
  /** The URL path the server sees, e.g. `/v1/user/overview/userinfo` (what signing covers). */
  readonly path: string;
  /** The full URL fetched (relative unless `baseUrl` is set), query included. */
  readonly url: string;
  /** The serialised JSON body as it will be sent (after `transformBody`); undefined for GET, DELETE and multipart. */
  readonly body: string | undefined;
  /** Headers the client has set so far (lower-case names). */
  readonly headers: HeaderMap;
  /** The per-request id (UUID), also sent as `x-request-id`. */
  readonly requestId: string;
  /** The request time, also sent as `tm`. */
  readonly time: number;
}

export interface ImageDomainOption {
  /** The stored fastest image host; nothing is rewritten while it is empty. */
  fastHost: Getter<string | null | undefined>;
  /** Hosts that may be rewritten (server lists merged with the default host). */
  allowedHosts: Getter<readonly string[]>;
}

export interface ApiClientOptions {
  /** Prefix for api names; "" (default) sends same-origin relative paths. Tests and bots set an origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  credentials?: RequestCredentials;
  /** Interface locale code (`locale` header), e.g. `ja`; default `en`. */
  locale?: Getter<string | null | undefined>;
  /** Server language key (`language` header); default: the locale table's key for `locale`. */
  languageKey?: Getter<string | null | undefined>;
  terminalCode?: Getter<string | null | undefined>;
  deviceId?: Getter<string | null | undefined>;
  /** Simulation (paper) trading mode: adds `paptrading: 1`. */
  simulation?: Getter<boolean>;
  /** Beta environment marker: adds `beta: 1`. */
  beta?: Getter<boolean>;
  /** Clock for `tm`; the accounts work passes a server-aligned clock. */
  now?: () => number;
  logger?: Pick<Console, "error">;
  /** "Replace fast image domain": rewrite image hosts in answers (not the domain-config call). */
  imageDomain?: ImageDomainOption;
  /** How often the logout and sign-error hooks may fire; default 2000 ms. */
  hookThrottleMs?: number;
  /** Replaces the body before it is serialised (login encryption lives here). */
  transformBody?: (request: { method: HttpMethod; api: string; path: string; body: unknown }) => unknown;
  /** Extra headers for a request (request signing lives here); runs last, sees the final body. */
  beforeSend?: (request: OutgoingRequest) => HeaderMap | undefined | Promise<HeaderMap | undefined>;
  /** Every HTTP answer's headers (`request-time`, `gw-sign-error`), before the body is read. */
  onResponseHeaders?: (headers: Headers, request: OutgoingRequest) => void;
  /** Codes 00004/20906/20205 on any call but user info; throttled. */
  onForcedLogout?: (code: string, api: string) => void;
  /** Codes 00020-00023; throttled. */
  onSignError?: (code: string, msg: string, api: string) => void;
}

export interface CallOptions<T> {
  /** Validates (and may transform) `data`; a mismatch rejects with kind `invalid-data`. */
  schema?: ZodType<T>;
  /** Do not log the failure to the console (the caller handles it). */
  silent?: boolean;
  signal?: AbortSignal;
  headers?: HeaderMap;
  timeoutMs?: number;
}

export interface ApiClient {
  get<T = unknown>(api: string, query?: QueryParams, options?: CallOptions<T>): Promise<T>;
  post<T = unknown>(api: string, body?: unknown, options?: CallOptions<T>): Promise<T>;
  put<T = unknown>(api: string, body?: unknown, options?: CallOptions<T>): Promise<T>;
  /** DELETE with the payload as query parameters (a DELETE carries no body). */
  delete<T = unknown>(api: string, query?: QueryParams, options?: CallOptions<T>): Promise<T>;
  /**
   * A GET whose success answer is a file (CSV export...): resolves with its bytes; an
   * envelope answer (an error) rejects like any call.
   */
  download(api: string, query?: QueryParams, options?: Omit<CallOptions<Blob>, "schema">): Promise<Blob>;
  request<T = unknown>(
    method: HttpMethod,
    api: string,
    payload?: unknown,
    options?: CallOptions<T>,
  ): Promise<T>;
}

/**
 * The typed API client (docs/product.md §7 and §8). Resolves with the envelope's `data`
 * when `code` is a success code, rejects with an {@link ApiError} otherwise.
 */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
  const now = options.now ?? Date.now;
  const logger = options.logger ?? console;
  const throttleMs = options.hookThrottleMs ?? HOOK_THROTTLE_MS;
  const forcedLogout = throttle((code: string, api: string) => {
    options.onForcedLogout?.(code, api);
  }, throttleMs);
  const signError = throttle((code: string, msg: string, api: string) => {
    options.onSignError?.(code, msg, api);
  }, throttleMs);

  const callHook = (name: string, run: () => void): void => {
    try {
      run();
    } catch (error) {
      logger.error(`[api] ${name} hook threw`, error);
    }
  };

  async function request<T>(
    method: HttpMethod,
    rawApi: string,
    payload?: unknown,
    call: CallOptions<T> = {},
    file = false,
  ): Promise<T> {
    const api = rawApi.trim().replace(/^\/+/, "");
    const fail = (init: Omit<ApiErrorInit, "api">, log: boolean): never => {
      const error = new ApiError({ ...init, api });
      if (log && !call.silent) logger.error(`[api] ${api || "(empty)"}: ${error.code} ${error.msg}`, error);
      throw error;
    };
    if (api === "") return fail({ kind: "invalid-name", code: "", msg: ClientMessage.INVALID_NAME }, true);

    const isAbsolute = /^https?:\/\//i.test(api);
    const target = isAbsolute ? api : `${baseUrl}/${api}`;
    const path = isAbsolute ? new URL(api).pathname : `/${api}`;
    const hasBody = method === "POST" || method === "PUT";
    const query = hasBody ? "" : serializeQuery(payload as QueryParams | undefined);
    const url = query === "" ? target : `${target}${target.includes("?") ? "&" : "?"}${query}`;

    let body: string | undefined;
    // A multipart body (an upload) goes as it is: the browser writes its boundary, and
    // signing covers path, time and trace id only (mode 1, docs/security-gateway.md).
    const form =
      hasBody && typeof FormData !== "undefined" && payload instanceof FormData ? payload : undefined;
    if (hasBody && !form) {
      const transformed = options.transformBody
        ? await options.transformBody({ method, api, path, body: payload })
        : payload;
      // An empty POST or PUT still sends `{}`: JSON bodies must not be empty.
      body = JSON.stringify(transformed ?? {});
    }

    const requestId = newRequestId();
    const time = now();
    const headers: Record<string, string> = {
      [Header.WEBSITE]: WEBSITE,
      [Header.TERMINAL_TYPE]: TERMINAL_TYPE_WEB,
      [Header.REQUEST_ID]: requestId,
      [Header.TIME]: String(time),
    };
    const locale = read(options.locale) || DEFAULT_LOCALE;
    headers[Header.LOCALE] = locale;
    headers[Header.LANGUAGE] = read(options.languageKey) || getLocale(locale).languageKey;
    setIfPresent(headers, Header.TERMINAL_CODE, read(options.terminalCode));
    setIfPresent(headers, Header.DEVICE_ID, read(options.deviceId));
    if (read(options.simulation)) headers[Header.PAPER_TRADING] = "1";
    if (read(options.beta)) headers[Header.BETA] = "1";
    if (body !== undefined) headers["content-type"] = "application/json";
    for (const [k, v] of Object.entries(call.headers ?? {})) headers[k.toLowerCase()] = v;

    const outgoing = (): OutgoingRequest => ({
      method,
      api,
      path,
      url,
      body,
      headers: { ...headers },
      requestId,
      time,
    });
    if (options.beforeSend) {
      const extra = await options.beforeSend(outgoing());
      for (const [k, v] of Object.entries(extra ?? {})) headers[k.toLowerCase()] = v;
    }
    const sent = outgoing();

    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort();
    if (call.signal?.aborted) controller.abort();
    call.signal?.addEventListener("abort", onCallerAbort, { once: true });

    let response: Response;
    let text = "";
    let bytes: Blob | undefined;
    try {
      response = await doFetch(url, {
        method,
        headers,
        body: form ?? body,
        signal: controller.signal,
        credentials: options.credentials ?? "same-origin",
      });
      const answered = response;
      if (options.onResponseHeaders) {
        callHook("onResponseHeaders", () => options.onResponseHeaders?.(answered.headers, sent));
      }
      if (file && response.ok && !/\bjson\b/i.test(response.headers.get("content-type") ?? "")) {
        bytes = await response.blob();
      } else {
        text = await response.text();
      }
    } catch (error) {
      if (timedOut) {
        return fail({ kind: "timeout", code: "", msg: ClientMessage.TIMEOUT(timeoutMs), cause: error }, true);
      }
      if (controller.signal.aborted) {
        return fail({ kind: "aborted", code: "", msg: ClientMessage.ABORTED, cause: error }, false);
      }
      return fail({ kind: "network", code: "", msg: ClientMessage.NETWORK, cause: error }, true);
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", onCallerAbort);
    }

    if (bytes !== undefined) return bytes as T;
    const httpStatus = response.status;
    const parsed = parseJson(text);

    // Rate limited: the caller backs off; logging every refusal would flood the console.
    if (httpStatus === 429) {
      const env = asEnvelope(parsed);
      return fail(
        {
          kind: "too-many-requests",
          code: env?.code ?? "",
          msg: env?.msg || ClientMessage.TOO_MANY_REQUESTS,
          data: env?.data,
          httpStatus,
        },
        false,
      );
    }

    if (isRecord(parsed) && parsed.status === "error") {
      return fail(
        {
          kind: "status-error",
          code: parsed.code === undefined ? "" : String(parsed.code),
          msg: firstString(parsed.msg, parsed.message, parsed.error) ?? "error",
          data: parsed.data,
          httpStatus,
        },
        true,
      );
    }

    const envelope = asEnvelope(parsed);
    if (!envelope) {
      if (!response.ok) {
        return fail(
          { kind: "http", code: "", msg: response.statusText || `HTTP ${httpStatus}`, httpStatus },
          true,
        );
      }
      return fail(
        { kind: "invalid-response", code: "", msg: ClientMessage.INVALID_RESPONSE, httpStatus },
        true,
      );
    }

    if (!isSuccessCode(envelope.code)) {
      const { code, msg } = envelope;
      if (FORCED_LOGOUT_CODES.has(code) && api !== USER_INFO_API) {
        callHook("onForcedLogout", () => forcedLogout(code, api));
      }
      if (SIGN_ERROR_CODES.has(code)) {
        callHook("onSignError", () => signError(code, msg, api));
      }
      return fail({ kind: "api", code, msg, data: envelope.data, httpStatus }, true);
    }

    if (file) {
      return fail(
        { kind: "invalid-response", code: "", msg: ClientMessage.INVALID_RESPONSE, httpStatus },
        true,
      );
    }
    let data: unknown = envelope.data;
    if (options.imageDomain && api !== DOMAIN_CONFIG_API) {
      const fastHost = read(options.imageDomain.fastHost);
      if (fastHost) data = rewriteImageUrls(data, fastHost, read(options.imageDomain.allowedHosts) ?? []);
    }
    if (call.schema) {
      const result = call.schema.safeParse(data);
      if (!result.success) {
        return fail(
          {
            kind: "invalid-data",
            code: envelope.code,
            msg: ClientMessage.INVALID_DATA,
            data: result.error.issues,
            httpStatus,
          },
          true,
        );
      }
      return result.data;
    }
    return data as T;
  }

  return {
    request,
    get: (api, query, call) => request("GET", api, query, call),
    post: (api, body, call) => request("POST", api, body, call),
    put: (api, body, call) => request("PUT", api, body, call),
    delete: (api, query, call) => request("DELETE", api, query, call),
    download: (api, query, call) => request<Blob>("GET", api, query, call, true),
  };
}

function read<T>(value: Getter<T> | undefined): T | undefined {
  return typeof value === "function" ? (value as () => T)() : value;
}

function setIfPresent(headers: Record<string, string>, name: string, value: string | null | undefined): void {
  if (value !== undefined && value !== null && value !== "") headers[name] = value;
}

function serializeQuery(query: QueryParams | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const v of values) if (v !== undefined && v !== null) params.append(key, String(v));
  }
  return params.toString();
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// Older gateways send numeric codes (200); the catalogue compares strings.
function asEnvelope(value: unknown): { code: string; msg: string; data: unknown } | undefined {
  if (!isRecord(value)) return undefined;
  const { code } = value;
  if (typeof code !== "string" && typeof code !== "number") return undefined;
  return {
    code: String(code),
    msg: typeof value.msg === "string" ? value.msg : "",
    data: value.data ?? null,
  };
}

function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === "string" && v !== "") return v;
  return undefined;
}
