import {
  type ApiClient,
  createApiClient,
  GatewaySecurity,
  loadSession,
  securityHooks,
} from "@meridian/client";
import { USER_ID_STORAGE_KEY, type UserInfoResponse, type UserRecord } from "@meridian/contracts";
import { message } from "antd";
import { isSimulationActive } from "../simulation/simulation-controller.ts";

/** The browser's API client with login encryption, request signing and the spec's reactions (one per tab). */
export interface AccountClient {
  api: ApiClient;
  security: GatewaySecurity;
  /** Session load (SPEC section 4): user info, cached user id, signing for the bound key. */
  loadSession(): Promise<UserRecord | undefined>;
  logout(): Promise<void>;
}

let instance: AccountClient | undefined;

function report(event: string, reason: string): void {
  const body = JSON.stringify({
    bizType: "gateway",
    data: { event, reason },
    timestamp: Date.now(),
    page: location.pathname,
  });
  void fetch("/v1/buried/log/cspSecurity", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  }).catch(() => undefined);
}

export function accountClient(): AccountClient {
  if (instance) return instance;
  const security = new GatewaySecurity({
    fetchConfig: async () => {
      const res = await fetch("/v1/mix/config/gatewaySignConfig");
      const env = (await res.json()) as { data?: { gatewaySignConfig?: unknown } };
      return env.data?.gatewaySignConfig;
    },
    report,
    cache: sessionStorage,
  });
  let api: ApiClient;
  const clearLocal = () => {
    security.onLogout();
    localStorage.removeItem(USER_ID_STORAGE_KEY);
  };
  const logout = async () => {
    await api.post("v1/user/logout", undefined, { silent: true }).catch(() => undefined);
    clearLocal();
  };
  const hooks = securityHooks(security, {
    toastError: (msg) => void message.error(msg),
    logout,
    forceLogout: async () => {
      await api.post("v1/user/public/clearCookie", undefined, { silent: true }).catch(() => undefined);
      await api.post("btapi/common/logout", undefined, { silent: true }).catch(() => undefined);
      clearLocal();
      location.reload();
    },
  });
  api = createApiClient({
    // SPEC section 4: every request carries paptrading: 1 while simulation mode is on.
    simulation: () => isSimulationActive(),
    now: security.now,
    transformBody: security.transformBody,
    beforeSend: security.beforeSend,
    onResponseHeaders: hooks.onResponseHeaders,
    onForcedLogout: hooks.onForcedLogout,
    onSignError: hooks.onSignError,
  });
  instance = {
    api,
    security,
    logout,
    async loadSession() {
      await security.init();
      const user = await loadSession({
        fetchUserInfo: () => api.post<UserInfoResponse>("v1/user/overview/userinfo", {}, { silent: true }),
        storage: localStorage,
      });
      await security.onSession(user?.userId);
      return user;
    },
  };
  return instance;
}
