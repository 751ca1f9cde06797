/** Client chunks a page that renders antd loads before hydrating (vite.config.ts, antdPreload). */
declare module "virtual:meridian/antd-preload" {
  const list: {
    config: string[];
    antdLocales: Record<string, string>;
    dayjsLocales: Record<string, string>;
  };
  export default list;
}

/** URL of the islands bundle (app/islands/main.ts) that pages without hydration load (vite.config.ts, islands). */
declare module "virtual:meridian/islands" {
  const href: string;
  export default href;
}
