import { useRouteLoaderData } from "react-router";
import tradeStyles from "../trading-screen/trade.css?url";
import tradeFormStyles from "../trading-screen/trade-form.css?url";
import futuresStyles from "./futures.css?url";
import { FuturesPage, type FuturesPageProps } from "./futures-page.tsx";

/** The stylesheets of every futures route (USDT-M, coin-M, the phone layout). */
export const futuresLinks = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: tradeFormStyles },
  { rel: "stylesheet", href: futuresStyles },
];

type RoutePageProps = Pick<FuturesPageProps, "locale" | "symbol" | "snapshot" | "layout" | "family">;

/** A futures route's screen: its loader's page with the root's theme and session. */
export function FuturesRoutePage(props: RoutePageProps) {
  const root = useRouteLoaderData<{ theme?: string; user?: unknown }>("root");
  return <FuturesPage {...props} dark={root?.theme === "black"} loggedIn={Boolean(root?.user)} />;
}
