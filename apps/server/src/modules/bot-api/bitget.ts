import { Code, FuturesCode, MarginCode, PaperCode } from "@meridian/contracts";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";

/**
 * Bitget's v2 envelope and error codes, so that a Bitget client (ccxt) raises the right
 * exception class for each refusal. NOTE: ccxt treats any `msg` other than "success" as
 * an error, so success answers always say exactly "success".
 */
export const BitgetCode = {
  OK: "00000",
  /** Demo environment without `PAPTRADING: 1` (ccxt: ExchangeError). */
  ENVIRONMENT: "40099",
  ACCESS_KEY_EMPTY: "40001",
  SIGN_EMPTY: "40002",
  TIMESTAMP_EMPTY: "40003",
  /** Timestamp outside the 30 s window (ccxt: InvalidNonce). */
  TIMESTAMP_EXPIRED: "40008",
  TIMESTAMP_INVALID: "40005",
  ACCESS_KEY_INVALID: "40006",
  SIGN_INVALID: "40009",
  PASSPHRASE_EMPTY: "40011",
  PASSPHRASE_WRONG: "40012",
  /** The key lacks the permission (ccxt: PermissionDenied). */
  PERMISSION: "40014",
  IP_DENIED: "40018",
  PARAM_INVALID: "40017",
  PARAM_EMPTY: "40019",
  PARAM_ERROR: "40020",
  /** Unknown URL or method (ccxt: BadRequest); Bitget's message is `NOT_FOUND_MSG`. */
  NOT_FOUND: "40404",
  /** Content-Type or Content-Encoding the API does not read (ccxt: BadRequest). */
  MEDIA_TYPE: "415",
  SYMBOL_UNKNOWN: "40309",
  /** Spot order not found (ccxt: OrderNotFound). */
  ORDER_NOT_FOUND: "43001",
  /** Futures order not found (ccxt: OrderNotFound). */
  MIX_ORDER_NOT_FOUND: "40768",
  INSUFFICIENT_BALANCE: "43012",
  MIX_INSUFFICIENT: "40762",
  ORDER_INVALID: "43011",
  MIN_AMOUNT: "45110",
  RATE_LIMIT: "429",
} as const;
/** Bitget's message for a path it does not serve. */
export const NOT_FOUND_MSG = "Request URL NOT FOUND";

export type BitgetCode = (typeof BitgetCode)[keyof typeof BitgetCode];

export class BitgetError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, status = 400) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export interface BitgetEnvelope {
  code: string;
  msg: string;
  requestTime: number;
  data: unknown;
}

export const success = (data: unknown): BitgetEnvelope => ({
  code: BitgetCode.OK,
  msg: "success",
  requestTime: Date.now(),
  data: data === undefined ? null : data,
});

export const failure = (code: string, msg: string): BitgetEnvelope => ({
  code,
  msg,
  requestTime: Date.now(),
  data: null,
});

/** Meridian's paper, futures and margin codes as Bitget's. */
const FROM_MERIDIAN: Readonly<Record<string, string>> = {
  [PaperCode.INSUFFICIENT_BALANCE]: BitgetCode.INSUFFICIENT_BALANCE,
  [PaperCode.ORDER_REJECTED]: BitgetCode.ORDER_INVALID,
  [PaperCode.UNKNOWN_SYMBOL]: BitgetCode.SYMBOL_UNKNOWN,
  [PaperCode.ORDER_NOT_FOUND]: BitgetCode.ORDER_NOT_FOUND,
  [PaperCode.ORDER_NOT_OPEN]: BitgetCode.ORDER_NOT_FOUND,
  [PaperCode.NO_LIQUIDITY]: BitgetCode.ORDER_INVALID,
  [PaperCode.TOO_MANY_OPEN_ORDERS]: BitgetCode.ORDER_INVALID,
  [PaperCode.TOPUP_LIMIT]: BitgetCode.PARAM_INVALID,
  [FuturesCode.UNKNOWN_SYMBOL]: BitgetCode.SYMBOL_UNKNOWN,
  [FuturesCode.MARGIN_INSUFFICIENT]: BitgetCode.MIX_INSUFFICIENT,
  [FuturesCode.LEVERAGE_TOO_HIGH]: BitgetCode.PARAM_INVALID,
  [FuturesCode.REDUCE_ONLY_REJECTED]: BitgetCode.ORDER_INVALID,
  [FuturesCode.ORDER_INVALID]: BitgetCode.ORDER_INVALID,
  [FuturesCode.ORDER_NOT_FOUND]: BitgetCode.MIX_ORDER_NOT_FOUND,
  [FuturesCode.ORDER_NOT_OPEN]: BitgetCode.MIX_ORDER_NOT_FOUND,
  [FuturesCode.NO_LIQUIDITY]: BitgetCode.ORDER_INVALID,
  [FuturesCode.SETTING_LOCKED]: BitgetCode.PARAM_INVALID,
  [FuturesCode.TRANSFER_EXCEEDS]: BitgetCode.INSUFFICIENT_BALANCE,
  [FuturesCode.MARGIN_REDUCE_EXCEEDS]: BitgetCode.MIX_INSUFFICIENT,
  [FuturesCode.NOT_ISOLATED]: BitgetCode.PARAM_INVALID,
  [MarginCode.UNKNOWN_PAIR]: BitgetCode.SYMBOL_UNKNOWN,
  [MarginCode.BORROW_EXCEEDS_MAX]: BitgetCode.INSUFFICIENT_BALANCE,
  [MarginCode.REPAY_INVALID]: BitgetCode.PARAM_INVALID,
  [MarginCode.TRANSFER_EXCEEDS]: BitgetCode.INSUFFICIENT_BALANCE,
  [MarginCode.ASSET_NOT_ALLOWED]: BitgetCode.PARAM_INVALID,
  [MarginCode.TRANSFER_INVALID]: BitgetCode.PARAM_INVALID,
  [Code.TOO_MANY_REQUESTS]: BitgetCode.RATE_LIMIT,
};

/** The Bitget answer for anything thrown while serving `/api/v2`. */
export function toBitget(error: unknown): { status: number; body: BitgetEnvelope } {
  if (error instanceof BitgetError) return { status: error.status, body: failure(error.code, error.message) };
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    const field = issue?.path.join(".") ?? "";
    const empty = issue?.code === "invalid_type" && issue.input === undefined;
    return {
      status: 400,
      body: failure(
        empty ? BitgetCode.PARAM_EMPTY : BitgetCode.PARAM_INVALID,
        empty
          ? `Parameter ${field} cannot be empty`
          : `Parameter ${field} error: ${issue?.message ?? "invalid"}`,
      ),
    };
  }
  if (error instanceof AppError) {
    const mapped = rejectionCode(error) ?? FROM_MERIDIAN[error.code] ?? BitgetCode.PARAM_INVALID;
    const status = mapped === BitgetCode.RATE_LIMIT ? 429 : 400;
    return { status, body: failure(mapped, error.message) };
  }
  return frameworkRefusal(error) ?? { status: 500, body: failure("40000", "Internal error") };
}

/**
 * What Fastify and its plugins refuse before a handler runs (a body too large, an
 * encoding or media type it cannot read, a body that does not decompress), as Bitget's
 * envelope with the framework's 4xx status: the client's fault, never a 500.
 */
function frameworkRefusal(error: unknown): { status: number; body: BitgetEnvelope } | undefined {
  if (error === null || typeof error !== "object") return undefined;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE")
    return { status: 413, body: failure(BitgetCode.PARAM_INVALID, "Request body is too large") };
  if (code === "FST_ERR_CTP_INVALID_JSON_BODY" || code === "FST_ERR_CTP_EMPTY_JSON_BODY")
    return { status: 400, body: failure(BitgetCode.PARAM_INVALID, "Request body is not valid JSON") };
  if (code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" || code === "FST_CP_ERR_INVALID_CONTENT_ENCODING")
    return { status: 415, body: failure(BitgetCode.MEDIA_TYPE, "The current media type is not supported") };
  if (code === "FST_CP_ERR_INVALID_CONTENT")
    return {
      status: 400,
      body: failure(BitgetCode.PARAM_INVALID, "Request body could not be decoded with its Content-Encoding"),
    };
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500)
    return { status: statusCode, body: failure(BitgetCode.PARAM_INVALID, "Request could not be read") };
  return undefined;
}

/** Bitget's finer order-rejection codes (all InvalidOrder in ccxt) for the engine's reasons. */
function rejectionCode(error: AppError): string | undefined {
  if (error.code !== PaperCode.ORDER_REJECTED) return undefined;
  const reason = (error.data as { reason?: unknown } | null)?.reason;
  if (reason === "NOTIONAL_TOO_SMALL") return BitgetCode.MIN_AMOUNT;
  if (typeof reason === "string" && reason.startsWith("QTY_")) return "40808";
  if (typeof reason === "string" && reason.startsWith("PRICE_")) return "41103";
  return undefined;
}

/** A decimal sent as a JSON string or number (ccxt sends `triggerPrice` and `amount` as numbers). */
export const bgDecimal = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === "number" ? numberText(v) : v.trim()))
  .refine((v) => /^\d{1,20}(\.\d{1,18})?$/.test(v), "must be a positive decimal");

function numberText(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "NaN";
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(18).replace(/\.?0+$/, "");
}

/** An id or time sent as a string or a number. */
export const bgInt = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,16}$/.test(v), "must be an integer")
  .transform(Number);

/** One of `values`, case-insensitive (Bitget accepts "GTC" and "gtc"); answered lower-case. */
export function bgEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(values));
}
