import { lazy, Suspense, useSyncExternalStore } from "react";
import { pendingReauth, subscribeReauth } from "../../api/reauth-events.ts";
import { pendingStepUp, subscribeStepUp } from "../../api/step-up-events.ts";

const StepUpDialog = lazy(() => import("./step-up-dialog.tsx").then((m) => ({ default: m.StepUpDialog })));

const ReauthDialog = lazy(() => import("./reauth-dialog.tsx").then((m) => ({ default: m.ReauthDialog })));

/** The dialog with antd's provider, for pages that render no antd themselves (the trade routes). */
const ReauthDialogWithAntd = lazy(async () => {
  const [{ AntdConfig }, { ReauthDialog: Dialog }] = await Promise.all([
    import("../shell/antd-config.tsx"),
    import("./reauth-dialog.tsx"),
  ]);
  return {
    default: (props: Parameters<typeof Dialog>[0]) => (
      <AntdConfig>
        <Dialog {...props} />
      </AntdConfig>
    ),
  };
});

/**
 * Mounted once per page: shows the re-authentication dialog when the API client asks for
 * one (its code loads only then). `withAntd`: the page has no antd provider (routes with
 * `NO_ANTD_HANDLE`), so the dialog brings its own, as an antd island does.
 */
export function ReauthGate({ withAntd = false }: { withAntd?: boolean }) {
  const request = useSyncExternalStore(subscribeReauth, pendingReauth, () => undefined);
  // The step-up code dialog opens from account and sub-account pages, which render antd.
  const stepUp = useSyncExternalStore(subscribeStepUp, pendingStepUp, () => undefined);
  if (stepUp !== undefined && !withAntd)
    return (
      <Suspense fallback={null}>
        <StepUpDialog />
      </Suspense>
    );
  if (request === undefined) return null;
  const Dialog = withAntd ? ReauthDialogWithAntd : ReauthDialog;
  return (
    <Suspense fallback={null}>
      <Dialog request={request} />
    </Suspense>
  );
}
