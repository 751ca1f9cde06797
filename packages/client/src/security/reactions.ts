import { Code, SignHeader } from "@meridian/contracts";
import type { GatewaySecurity } from "./gateway-security.ts";

export interface SecurityUi {
  toastError(msg: string): void;
  /** Posts logout and clears local session state (no reload). */
  logout(): Promise<void> | void;
  /** Forced logout: clear cookies on the server, logout, reload (SPEC section 4). */
  forceLogout(): Promise<void> | void;
  logger?: Pick<Console, "warn">;
  /**
   * 00020 while this tab holds no key for the session (its stored key is gone): ask the
   * user to re-authenticate, which binds a new key, instead of re-initialising in a loop.
   * Without it, 00020 re-initialises as the spec says.
   */
  onKeyMissing?(): void;
}

/**
 * The client's reactions to gateway and session codes (SPEC section 8), as hooks for
 * `createApiClient` (which throttles them to once per 2 s).
 */
export function securityHooks(security: GatewaySecurity, ui: SecurityUi) {
  return {
    onSignError(code: string, msg: string): void {
      if (code === Code.SIGN_INVALID) {
        ui.toastError(msg);
        void ui.logout();
        void security.reportStoredKeys();
      } else if (code === Code.SIGN_MISSING && !security.hasActiveKey && ui.onKeyMissing !== undefined) {
        ui.onKeyMissing();
      } else if (code === Code.SIGN_MISSING || code === Code.SIGN_MODE_MISMATCH) {
        ui.toastError(msg);
        security.reinitLater();
      } else if (code === Code.SIGN_EXPIRED) {
        ui.toastError(msg);
        security.reset();
      }
    },
    onForcedLogout(code: string, api: string): void {
      (ui.logger ?? console).warn(`[session] forced logout: code ${code} on ${api}`);
      security.onLogout();
      void ui.forceLogout();
    },
    onResponseHeaders(headers: Headers, request: { path: string }): void {
      const serverTime = headers.get(SignHeader.REQUEST_TIME);
      if (serverTime !== null) security.alignClock(Number(serverTime));
      const signError = headers.get(SignHeader.SIGN_ERROR);
      if (signError !== null) security.report("signError", `${signError} ${request.path}`);
    },
  };
}
