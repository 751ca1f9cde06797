import { Code, SIGN_WINDOW_MS, SignHeader, SignMode, signPayload } from "@meridian/contracts";
import { verifyDeviceSignature } from "./device-key.ts";
import { md5Hex } from "./keys.ts";
import type { ReplayStore } from "./replay.ts";

/** The device key bound to a session at login. */
export interface BoundKey {
  keyId: string;
  publicKey: string;
  alg: string;
}

export interface SignedRequest {
  /** The request target as sent: path plus query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** Raw body bytes for mode 2 (empty when there is none). */
  rawBody: Uint8Array | undefined;
}

export type SignVerdict =
  | { ok: true }
  | { ok: false; code: string; msg: string; reason: "missing" | "mode" | "expired" | "invalid" };

const TRACE_ID = /^(\d{13})-[0-9a-f]{16,64}$/;

function header(h: SignedRequest["headers"], name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

const missing: SignVerdict = {
  ok: false,
  code: Code.SIGN_MISSING,
  msg: "Request signature missing",
  reason: "missing",
};
const modeMismatch: SignVerdict = {
  ok: false,
  code: Code.SIGN_MODE_MISMATCH,
  msg: "Request signature mode mismatch",
  reason: "mode",
};
const expired: SignVerdict = {
  ok: false,
  code: Code.SIGN_EXPIRED,
  msg: "Request signature expired; check your device clock",
  reason: "expired",
};
const invalid: SignVerdict = {
  ok: false,
  code: Code.SIGN_INVALID,
  msg: "Request signature invalid",
  reason: "invalid",
};

/**
 * Verifies one signed core call against the key bound to its session.
 *
 * The signed time is only the first 8 characters of `tm` (docs/product.md §9, a ~28 h
 * bucket), so in modes 1 and 2 the trace id must embed the full `tm`: the signature
 * then pins the exact time, and the replay store only has to remember trace ids for
 * the window. Mode 0 signs no trace id and can be replayed within the bucket: configure
 * mode 1 or 2 for anything that changes state.
 */
export async function verifySignedRequest(
  req: SignedRequest,
  requiredMode: number,
  key: BoundKey,
  replay: ReplayStore,
  now: number,
): Promise<SignVerdict> {
  const h = req.headers;
  const sign = header(h, SignHeader.SIGN);
  if (sign === undefined || sign === "") return missing;
  const modeText = header(h, SignHeader.MODE);
  if (modeText !== String(requiredMode)) return modeMismatch;
  const tm = header(h, SignHeader.TIME) ?? "";
  if (!/^\d{13}$/.test(tm) || Math.abs(now - Number(tm)) > SIGN_WINDOW_MS) return expired;
  const traceId = header(h, SignHeader.TRACE_ID) ?? "";
  if (requiredMode >= SignMode.PATH_TIME_TRACE && TRACE_ID.exec(traceId)?.[1] !== tm) return invalid;
  if (header(h, SignHeader.KEY) !== key.keyId) return invalid;
  let bodyMd5 = "";
  if (requiredMode >= SignMode.PATH_TIME_TRACE_BODY) {
    bodyMd5 = md5Hex(req.rawBody ?? new Uint8Array());
    if (header(h, SignHeader.DATA_MD5) !== bodyMd5) return invalid;
  }
  if (
    !verifyDeviceSignature(
      key.alg,
      key.publicKey,
      signPayload(requiredMode, req.url, tm, traceId, bodyMd5),
      sign,
    )
  )
    return invalid;
  const replayId = requiredMode >= SignMode.PATH_TIME_TRACE ? `trace:${key.keyId}:${traceId}` : `sig:${sign}`;
  if (await replay.seen(replayId, 2 * SIGN_WINDOW_MS)) return invalid;
  return { ok: true };
}
