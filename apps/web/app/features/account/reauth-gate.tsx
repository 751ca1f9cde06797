import { lazy, Suspense, useSyncExternalStore } from "react";
import { pendingReauth, subscribeReauth } from "./reauth-events.ts";

const ReauthDialog = lazy(() => import("./reauth-dialog.tsx").then((m) => ({ default: m.ReauthDialog })));

/**
 * Mounted once inside the antd provider: shows the re-authentication dialog when the API
 * client asks for one (its code loads only then).
 */
export function ReauthGate() {
  const request = useSyncExternalStore(subscribeReauth, pendingReauth, () => undefined);
  if (request === undefined) return null;
  return (
    <Suspense fallback={null}>
      <ReauthDialog request={request} />
    </Suspense>
  );
}
