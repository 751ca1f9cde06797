import { ApiError } from "@meridian/client";
import {
  type SubAccountView,
  type SubListResult,
  SubPath,
  type SubTransferBody,
  type SubTransferView,
} from "@meridian/contracts";
import type { TFunction } from "i18next";
import { accountClient } from "./account-client.ts";
import { withStepUp } from "./passkey-client.ts";

/** `/v1/user/sub/...` as the API client names it (no leading slash). */
const api = (path: string) => path.slice(1);

export const listSubs = () =>
  accountClient().api.get<SubListResult>(api(SubPath.LIST), undefined, { silent: true });

export const createSub = (name: string, label: string) =>
  accountClient().api.post<SubAccountView>(api(SubPath.CREATE), { name, label }, { silent: true });

export const freezeSub = (subUserId: string, frozen: boolean) =>
  accountClient().api.post<SubAccountView>(api(SubPath.FREEZE), { subUserId, frozen }, { silent: true });

/** A transfer moves money out of an account: a second factor at most 5 minutes old when one is bound. */
export const transferSub = (body: SubTransferBody) =>
  withStepUp(() => accountClient().api.post<SubTransferView>(api(SubPath.TRANSFER), body, { silent: true }));

export const recentTransfers = () =>
  accountClient().api.get<SubTransferView[]>(api(SubPath.TRANSFERS), { limit: 10 }, { silent: true });

/**
 * Switches the session into a sub-account. The path is encrypted (docs/product.md §7): the
 * client sends `userId` inside the ciphertext with a fresh device key, and binds that key
 * to the new session as after a login.
 */
export async function switchInto(subUserId: string): Promise<void> {
  const client = accountClient();
  const data = await client.api.post(api(SubPath.SWITCH), { userId: subUserId }, { silent: true });
  await client.security.onLoginSuccess(data);
}

/** Back from a sub-account to its master (also an encrypted path). */
export async function switchBack(): Promise<void> {
  const client = accountClient();
  const data = await client.api.post(api(SubPath.SWITCH_BACK), {}, { silent: true });
  await client.security.onLoginSuccess(data);
}

/** A refusal as the user reads it: the translated reason for our 18xxx codes, else the server's message, and the code. */
export function subErrorText(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiError) || error.code === "")
    return error instanceof Error ? error.message : String(error);
  const data = (error.data ?? {}) as { max?: unknown };
  const max = typeof data.max === "string" ? data.max.replace(/\.?0+$/, "") : "";
  const text = t(`subaccounts:errors.${error.code}`, { defaultValue: "", max });
  return `${text || error.msg || t("subaccounts:errors.generic")} (${error.code})`;
}
