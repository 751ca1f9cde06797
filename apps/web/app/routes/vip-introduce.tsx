import { VipIntroPage } from "../features/fees/fee-pages.tsx";
import feesStyles from "../features/fees/fees.css?url";
import { feesPageMeta } from "../features/fees/page-meta.ts";
import { loadFeesPage } from "../features/fees/vip.server.ts";
import type { Route } from "./+types/vip-introduce";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: feesStyles }];

export const loader = ({ params, context }: Route.LoaderArgs) => loadFeesPage(params, context, "intro");

export const meta = ({ loaderData }: Route.MetaArgs) => feesPageMeta(loaderData);

export default function Page({ loaderData }: Route.ComponentProps) {
  return <VipIntroPage locale={loaderData.locale} level={loaderData.level} />;
}
