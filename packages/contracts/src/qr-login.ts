import { z } from "zod";

/**
 * QR login (docs/accounts.md, "QR login"): a browser on the login page shows a single-use
 * token as a QR code, a logged-in session elsewhere confirms it, the browser is logged in.
 */
export const QrLoginCode = {
  /** No such token, or one that another browser asked for (HTTP 404). */
  TOKEN_UNKNOWN: "11040",
  /** The token's 2 minutes are over (HTTP 410). */
  TOKEN_EXPIRED: "11041",
  /** The token was confirmed or rejected already, or scanned by another account (HTTP 409). */
  TOKEN_USED: "11042",
  /** The browser that asked for the token cannot confirm it itself (HTTP 403). */
  OWN_REQUEST: "11043",
} as const;

/** How long a QR token lives. */
export const QR_TOKEN_TTL_MS = 2 * 60_000;
/** How often the login page asks for the token's state. */
export const QR_POLL_MS = 2_000;
/** The page a QR code opens (with `#token=`: a fragment never reaches a server log). */
export const QR_LOGIN_PATH = "/qr-login";

/** A token as `newToken()` makes it: 32 random bytes, base64url. */
export const qrTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
/** `getQrKeyStatus` (encrypted: `token` is a sensitive field) and the phone's scan, confirm, reject. */
export const qrTokenBody = z.object({ token: qrTokenSchema });
export type QrTokenBody = z.infer<typeof qrTokenBody>;

export const QrStatus = z.enum(["waiting", "scanned", "confirmed", "rejected", "expired"]);
export type QrStatus = z.infer<typeof QrStatus>;

/** `POST /v1/user/public/getQrKey`: the token to show, and when it dies. */
export interface QrKeyIssued {
  token: string;
  expiresAt: number;
}

/** `getQrKeyStatus`: on `confirmed` the answer also logs the browser in, as a login answer does. */
export interface QrKeyStatus {
  status: QrStatus;
  expiresAt: number;
  userInfo?: { userId: string };
  accessTokenResVO?: { userInfo: { userId: string } };
}

/** What the confirming session is shown about the browser that asked. */
export interface QrRequestInfo {
  status: QrStatus;
  browser: string;
  system: string;
  /** The address with its last part hidden (`203.0.113.*`): where, coarsely. */
  ip: string;
  /** Whether it came from the confirming device's own network (same /24 or /48). */
  sameNetwork: boolean;
  createdAt: number;
  expiresAt: number;
}
