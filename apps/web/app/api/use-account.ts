import type { UserRecord } from "@meridian/contracts";
import { useCallback, useEffect, useState } from "react";
import { accountClient } from "./account-client.ts";

/** Loads the session in the browser; `user` is undefined while loading or when logged out. */
export function useAccount(): {
  user: UserRecord | undefined;
  loading: boolean;
  reload: () => Promise<void>;
} {
  const [user, setUser] = useState<UserRecord | undefined>();
  const [loading, setLoading] = useState(true);
  const reload = useCallback(async () => {
    setUser(await accountClient().loadSession());
    setLoading(false);
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { user, loading, reload };
}

/** An API failure's message for a form error line. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
