import {
  toUserRecord,
  USER_ID_STORAGE_KEY,
  type UserInfoResponse,
  type UserRecord,
} from "@meridian/contracts";

export interface SessionDeps {
  /** POST v1/user/overview/userinfo. */
  fetchUserInfo(): Promise<UserInfoResponse>;
  storage?: Pick<Storage, "setItem" | "removeItem">;
  logger?: Pick<Console, "error">;
}

/**
 * Session load (docs/product.md §4): fetch the user info; on success cache the user id, on
 * failure clear it and log "get user info error".
 */
export async function loadSession(deps: SessionDeps): Promise<UserRecord | undefined> {
  try {
    const user = toUserRecord(await deps.fetchUserInfo());
    deps.storage?.setItem(USER_ID_STORAGE_KEY, user.userId);
    return user;
  } catch (err) {
    deps.storage?.removeItem(USER_ID_STORAGE_KEY);
    (deps.logger ?? console).error("get user info error", err);
    return undefined;
  }
}
