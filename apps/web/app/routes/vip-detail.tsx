import { VipDetailPage } from "../features/fees/fee-pages.tsx";
import feesStyles from "../features/fees/fees.css?url";
import { feesPageMeta } from "../features/fees/page-meta.ts";
import { loadFeesPage } from "../features/fees/vip.server.ts";
import type { Route } from "./+types/vip-detail";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: feesStyles }];

export const loader = ({ params, context }: Route.LoaderArgs) => loadFeesPage(params, context, "detail");

export const meta = ({ loaderData }: Route.MetaArgs) => feesPageMeta(loaderData);

export default function Page({ loaderData }: Route.ComponentProps) {
  return <VipDetailPage locale={loaderData.locale} level={loaderData.level} vip={loaderData.vip} />;
}
