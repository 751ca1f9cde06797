import {
  type ApiClient,
  createApiClient,
  GatewaySecurity,
  isApiError,
  loadSession,
  type OutgoingRequest,
  securityHooks,
  USER_INFO_API,
} from "@meridian/client";
import {
  Code,
  REFRESH_COOKIE,
  signModeFor,
  USER_ID_STORAGE_KEY,
  type UserInfoResponse,
  type UserRecord,
} from "@meridian/contracts";
import { writeCookie } from "../lib/cookies.ts";
import { isSimulationActive } from "../lib/simulation-controller.ts";
import { deviceId, pageLocale, storeAppVersion, terminalCode } from "./client-identity.ts";
import { withFastImageDomain } from "./fast-image-header.ts";
import { buildIssuerJwk } from "./issuer-key.ts";
import { requestReauth } from "./reauth-events.ts";

/** The browser's API client with login encryption, request signing and the spec's reactions (one per tab). */
export interface AccountClient {
  api: ApiClient;
  security: GatewaySecurity;
  /**
   * Session load (docs/product.md §4): user info, cached user id, signing for the bound key.
   * Calls made while one is in flight share it (the root and an account page both ask on load).
   */
  loadSession(): Promise<UserRecord | undefined>;
  /** Logout (docs/product.md §4): the logout call, the refresh-token cookie, the server's cookie clearing. The caller reloads. */
  logout(): Promise<void>;
}

let instance: AccountClient | undefined;

/**
 * "get user info error" goes to the console as the spec says; an anonymous visitor's
 * "not logged in" answer is the normal case on every public page, so it is a warning,
 * not an error (real failures stay errors).
 */
const sessionLogger: Pick<Console, "error"> = {
  error: (message: string, err: unknown) => {
    if (isApiError(err) && err.code === Code.SESSION_INVALID) console.warn(message, err.msg);
    else console.error(message, err);
  },
};

/** A client without hooks: the calls the signing layer itself makes (its config, its reports). */
let bare: ApiClient | undefined;
const bareClient = (): ApiClient => {
  bare ??= createApiClient({ simulation: () => isSimulationActive() });
  return bare;
};

function report(event: string, reason: string): void {
  const body = {
    bizType: "gateway",
    data: { event, reason },
    timestamp: Date.now(),
    page: location.pathname,
  };
  void bareClient()
    .post("v1/buried/log/cspSecurity", body, { silent: true })
    .catch(() => undefined);
}

export function accountClient(): AccountClient {
  if (instance) return instance;
  const security = new GatewaySecurity({
    fetchConfig: async () => {
      const data = await bareClient().get<{ gatewaySignConfig?: unknown } | null>(
        "v1/mix/config/gatewaySignConfig",
      );
      return data?.gatewaySignConfig;
    },
    report,
    issuerJwk: buildIssuerJwk(),
    cache: sessionStorage,
  });
  let api: ApiClient;
  const clearLocal = () => {
    security.onLogout();
    localStorage.removeItem(USER_ID_STORAGE_KEY);
  };
  const logout = async () => {
    await api.post("v1/user/logout", undefined, { silent: true }).catch(() => undefined);
    // The server expires both cookies; a readable copy of the refresh token must go too.
    writeCookie(REFRESH_COOKIE, "", 0);
    await api.post("v1/user/public/clearCookie", undefined, { silent: true }).catch(() => undefined);
    clearLocal();
  };
  let lastUser: UserRecord | undefined;
  const hooks = securityHooks(security, {
    // antd's message (and its ConfigProvider) loads only when a toast is due: every page
    // starts this client, and most never show one.
    toastError: (msg) => void import("antd/es/message").then(({ default: message }) => message.error(msg)),
    logout,
    forceLogout: async () => {
      await api.post("v1/user/public/clearCookie", undefined, { silent: true }).catch(() => undefined);
      await api.post("btapi/common/logout", undefined, { silent: true }).catch(() => undefined);
      clearLocal();
      location.reload();
    },
    // The session is valid but this browser lost its bound key: a password step binds a new one.
    // A 00020 can arrive before the session has loaded (a config reload pending, a page's
    // first call): load it then, rather than dropping the request and leaving every signed
    // call stuck on "Request signature missing".
    onKeyMissing: () => {
      void (async () => {
        const user = lastUser ?? (await instance?.loadSession().catch(() => undefined));
        if (user === undefined) return; // logged out: nothing to re-authenticate
        const loginName = user.loginName || user.email || user.phone;
        if (loginName === "") return;
        requestReauth({
          loginName,
          ...(loginName === user.phone && user.areaCode !== "" ? { areaCode: user.areaCode } : {}),
        });
      })();
    },
  });
  storeAppVersion();
  api = createApiClient({
    // docs/product.md §7: the page's locale (its language key derived), not the default.
    locale: pageLocale,
    terminalCode,
    deviceId,
    // docs/product.md §4: every request carries paptrading: 1 while simulation mode is on.
    simulation: () => isSimulationActive(),
    now: security.now,
    transformBody: security.transformBody,
    beforeSend: withFastImageDomain(async (req) => {
      await signingReady(req);
      return security.beforeSend(req);
    }),
    onResponseHeaders: hooks.onResponseHeaders,
    onForcedLogout: hooks.onForcedLogout,
    onSignError: hooks.onSignError,
  });
  let inFlight: Promise<UserRecord | undefined> | undefined;
  let firstLoad: Promise<unknown> | undefined;
  // A signed call made before the session has loaded (a page's first effect runs before the
  // root's) waits for it, so it goes out signed with the bound key instead of answering 00020.
  const signingReady = async (req: OutgoingRequest): Promise<void> => {
    if (req.api === USER_INFO_API) return;
    await security.init();
    const config = security.config;
    if (config === undefined || !config.clientOpen || signModeFor(config, req.path) === undefined) return;
    firstLoad ??= instance?.loadSession();
    await firstLoad?.catch(() => undefined);
  };
  const load = async () => {
    await security.init();
    const user = await loadSession({
      fetchUserInfo: () => api.post<UserInfoResponse>("v1/user/overview/userinfo", {}, { silent: true }),
      storage: localStorage,
      logger: sessionLogger,
    });
    await security.onSession(user?.userId);
    lastUser = user;
    return user;
  };
  instance = {
    api,
    security,
    logout,
    loadSession() {
      inFlight ??= load().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
  return instance;
}
