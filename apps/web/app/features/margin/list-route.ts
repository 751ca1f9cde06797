import type { LinkDescriptor, MetaDescriptor } from "react-router";
import assetsStyles from "../../styles/assets.css?url";
import recordsStyles from "../trading-screen/records.css?url";
import tradeStyles from "../trading-screen/trade.css?url";
import tradeFormStyles from "../trading-screen/trade-form.css?url";
import marginStyles from "./margin.css?url";

/**
 * What the margin list routes (/order/marginOrderInfo, /record/margin, /asset/margin)
 * share: their stylesheets and a private page's head (title, not indexed).
 */
export const marginListLinks = (): LinkDescriptor[] =>
  [tradeStyles, tradeFormStyles, recordsStyles, assetsStyles, marginStyles].map((href) => ({
    rel: "stylesheet",
    href,
  }));

export const privatePageMeta = (data: { title: string } | undefined): MetaDescriptor[] =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];
