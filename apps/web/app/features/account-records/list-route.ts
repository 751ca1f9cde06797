import type { LinkDescriptor } from "react-router";
import assetsStyles from "../assets/assets.css?url";
import recordsStyles from "../trade/records.css?url";
import tradeStyles from "../trade/trade.css?url";
import tradeFormStyles from "../trade/trade-form.css?url";
import pagesStyles from "./pages.css?url";

/** Stylesheets of /transac, /trade-asset-order, /order/mcp and /record/mcp. */
export const statementLinks = (): LinkDescriptor[] =>
  [tradeStyles, tradeFormStyles, recordsStyles, assetsStyles, pagesStyles].map((href) => ({
    rel: "stylesheet",
    href,
  }));
