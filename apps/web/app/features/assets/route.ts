import type { LinkDescriptor, MetaDescriptor } from "react-router";
import assetsStyles from "../../styles/assets.css?url";

/** What the asset routes (/asset, /asset/spot) share: their stylesheet and a private page's head. */
export const assetsLinks = (): LinkDescriptor[] => [{ rel: "stylesheet", href: assetsStyles }];

export const assetsMeta = (data: { title: string; description: string } | undefined): MetaDescriptor[] =>
  data
    ? [
        { title: data.title },
        { name: "description", content: data.description },
        { name: "robots", content: "noindex" },
      ]
    : [];
