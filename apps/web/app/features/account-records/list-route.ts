import type { LinkDescriptor } from "react-router";
import assetsStyles from "../../styles/assets.css?url";
import recordsStyles from "../trading-screen/records.css?url";
import tradeStyles from "../trading-screen/trade.css?url";
import tradeFormStyles from "../trading-screen/trade-form.css?url";
import pagesStyles from "./pages.css?url";

/** Stylesheets of /transac, /trade-asset-order, /order/mcp and /record/mcp. */
export const statementLinks = (): LinkDescriptor[] =>
  [tradeStyles, tradeFormStyles, recordsStyles, assetsStyles, pagesStyles].map((href) => ({
    rel: "stylesheet",
    href,
  }));
