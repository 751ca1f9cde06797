import { type ReactNode, use } from "react";

type AntdConfigModule = typeof import("./antd-config.tsx");

let loaded: AntdConfigModule | undefined;
let loading: Promise<AntdConfigModule> | undefined;

/**
 * Fetches the antd provider module (antd's ConfigProvider and theme). The client entry
 * awaits it before hydrating a page that renders antd, so the gate below renders at once.
 */
export function loadAntdConfig(): Promise<AntdConfigModule> {
  loading ??= import("./antd-config.tsx").then((mod) => {
    loaded = mod;
    return mod;
  });
  return loading;
}

/**
 * `AntdConfig` around a page that renders antd, without antd in the root's bundle:
 * synchronous once the module is loaded, otherwise it suspends until it is (the first
 * server render, a client navigation from an antd-free page).
 */
export function AntdGate({ children }: { children: ReactNode }) {
  const mod = loaded ?? use(loadAntdConfig());
  return <mod.AntdConfig>{children}</mod.AntdConfig>;
}
