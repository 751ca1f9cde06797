import { type ComponentType, lazy, Suspense } from "react";
import { useMounted } from "./use-mounted.ts";

/**
 * A component that renders antd, fetched together with antd and its own provider when it
 * first renders in the browser (a Suspense boundary of its own, nothing shown meanwhile).
 * The trading screens render no antd for a visitor, so their routes skip antd's code and
 * stylesheet (`NO_ANTD_HANDLE`); a user's simulation button and a paper trader's dialogs
 * bring antd along when they appear.
 *
 * NOTE: client only (nothing in the server HTML): a server-rendered island would show a
 * button that swallows a click until its code has arrived and hydrated, while a client
 * one appears when it works.
 */
export function antdIsland<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Island = lazy(async () => {
    const [{ AntdConfig }, Component] = await Promise.all([import("../shell/antd-config.tsx"), load()]);
    return {
      default: (props: P) => (
        <AntdConfig>
          <Component {...props} />
        </AntdConfig>
      ),
    };
  });
  // biome-ignore lint/correctness/noComponentHookFactories: made once per island at module level, as React.lazy is.
  return function AntdIsland(props: P) {
    const mounted = useMounted();
    if (!mounted) return null;
    return (
      <Suspense fallback={null}>
        <Island {...props} />
      </Suspense>
    );
  };
}
