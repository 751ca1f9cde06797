import { WALLETS } from "./margin.ts";
import { clientTransferId, decimal, symbol } from "./order-fields.ts";
import { z } from "./zod-csp.ts";

/**
 * Sub-accounts (`/v1/user/sub/*`) and moving VIP levels (`/v1/vip/*`). A master account
 * (any user that is not itself a sub) makes up to MAX_SUB_ACCOUNTS subs. Each sub is a
 * user of its own, with a virtual e-mail (`<name>@SUB_EMAIL_DOMAIN`) it cannot log in
 * with: the master switches into it (`/v1/user/sub/switch`, an encrypted path as docs/product.md
 * section 7 says) and back (`/v1/user/sub/switch/back`). Codes in the 18xxx range are ours.
 */
export const SubCode = {
  /** The master already has MAX_SUB_ACCOUNTS subs. */
  LIMIT_REACHED: "18001",
  /** That sub-account name (the virtual e-mail) is taken. */
  NAME_TAKEN: "18002",
  /** No such sub-account of this master. */
  NOT_FOUND: "18003",
  /** A sub-account cannot do this (make subs, transfer, switch into another sub). */
  NOT_MASTER: "18004",
  /** The sub-account is frozen: no switching into it. */
  FROZEN: "18005",
  /** The transfer's source lacks the amount (data: max). */
  TRANSFER_EXCEEDS: "18006",
  /** The transfer is not possible in that wallet (asset or pair not carried there). */
  TRANSFER_INVALID: "18007",
  /** Switching back asked by a session that did not switch into a sub. */
  NOT_SWITCHED: "18008",
} as const;

export const MAX_SUB_ACCOUNTS = 20;
export const SUB_EMAIL_DOMAIN = "sub.meridian.local";

export const SubPath = {
  LIST: "/v1/user/sub/list",
  CREATE: "/v1/user/sub/create",
  FREEZE: "/v1/user/sub/freeze",
  LABEL: "/v1/user/sub/label",
  TRANSFER: "/v1/user/sub/transfer",
  TRANSFERS: "/v1/user/sub/transfers",
  SWITCH: "/v1/user/sub/switch",
  SWITCH_BACK: "/v1/user/sub/switch/back",
} as const;

export const VipPath = {
  DETAIL: "/v1/vip/detail",
  /** Admin: runs the VIP job now. */
  RECOMPUTE: "/v1/admin/vip/recompute",
} as const;

const subUserId = z.string().regex(/^\d{6,20}$/, "user id");
const label = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .refine(
    (s) => ![...s].some((c) => c === "<" || c === ">" || c.charCodeAt(0) < 32),
    "no angle brackets or control characters",
  );

export const subCreateBodySchema = z.object({
  /** The part before `@` of the virtual e-mail: lower-case letters and digits, 4-20. */
  name: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z][a-z0-9]{3,19}$/, "4-20 letters and digits, starting with a letter"),
  label,
});
export type SubCreateBody = z.input<typeof subCreateBodySchema>;

export const subFreezeBodySchema = z.object({ subUserId, frozen: z.boolean() });
export type SubFreezeBody = z.input<typeof subFreezeBodySchema>;

export const subLabelBodySchema = z.object({ subUserId, label });
export type SubLabelBody = z.input<typeof subLabelBodySchema>;

export const SUB_TRANSFER_DIRECTIONS = ["TO_SUB", "FROM_SUB"] as const;
export type SubTransferDirection = (typeof SUB_TRANSFER_DIRECTIONS)[number];

export const subTransferBodySchema = z
  .object({
    subUserId,
    direction: z.enum(SUB_TRANSFER_DIRECTIONS),
    /** The same wallet on both sides: master SPOT -> sub SPOT, and so on. */
    wallet: z.enum(WALLETS),
    asset: z
      .string()
      .regex(/^[A-Za-z0-9]{2,10}$/, "asset")
      .transform((s) => s.toUpperCase()),
    amount: decimal,
    symbol: symbol.optional(),
    /** Unique per master among its sub-account transfers: sent again, it answers the first one. */
    clientTransferId: clientTransferId.optional(),
  })
  .refine((b) => b.wallet !== "ISOLATED_MARGIN" || b.symbol !== undefined, {
    path: ["symbol"],
    message: "required",
  });
export type SubTransferBody = z.input<typeof subTransferBodySchema>;

export const subTransfersQuerySchema = z.object({
  subUserId: subUserId.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** The switch body: `userId` is a sensitive field, so it only travels inside the ciphertext. */
export const subSwitchBodySchema = z.object({ userId: subUserId });
export type SubSwitchBody = z.input<typeof subSwitchBodySchema>;

/** One asset of one wallet: `amount` free plus `locked` (held for orders), decimal strings. */
export interface SubWalletBalance {
  asset: string;
  amount: string;
  locked: string;
}

export interface SubAccountView {
  userId: string;
  email: string;
  label: string;
  frozen: boolean;
  createdAt: number;
  /** Per wallet: SPOT, FUTURES, CROSS_MARGIN (isolated margin pairs as ISOLATED_MARGIN:<PAIR>). */
  wallets: Record<string, SubWalletBalance[]>;
  /** Everything valued in USDT at the last prices (decimal string). */
  totalUsdt: string;
}

export interface SubListResult {
  max: number;
  subs: SubAccountView[];
}

export interface SubTransferView {
  id: number;
  subUserId: string;
  direction: SubTransferDirection;
  wallet: string;
  symbol: string | null;
  asset: string;
  amount: string;
  /** The id the master sent with it, if any. */
  clientTransferId: string | null;
  createdAt: number;
}

/** `/v1/vip/detail`: where the account stands (whole USDT figures as decimal strings). */
export interface VipDetail {
  level: number;
  /** 30-day spot + futures (+ margin) volume of the master and its subs, USDT. */
  volume30d: string;
  /** Balance of the master and its subs valued in USDT when the job last ran. */
  balance: string;
  /** When the job last measured (epoch ms), or null before its first run for this account. */
  computedAt: number | null;
  /** The next tier and what it needs (either figure reaches it), or null at the top. */
  next: {
    level: number;
    minVolume30d: string;
    minBalance: string;
    volumeNeeded: string;
    balanceNeeded: string;
  } | null;
  makerRate: string;
  takerRate: string;
}

export interface VipRecomputeResult {
  accounts: number;
  changed: number;
}
