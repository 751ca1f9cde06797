import type { AirdropDetailResult } from "@meridian/contracts";
import { sanitizeHtml, sanitizeUrl } from "@meridian/sanitize";

/** Rich text is sanitised again at render time; project links must pass the URL allow-list. */
export function cleanDetail(detail: AirdropDetailResult): AirdropDetailResult {
  const a = detail.airdrop;
  const url = (u: string) => (u ? sanitizeUrl(u, { warn: false }) : "");
  return {
    ...detail,
    airdrop: {
      ...a,
      about: sanitizeHtml(a.about),
      airdropInfo: sanitizeHtml(a.airdropInfo),
      priceDetail: sanitizeHtml(a.priceDetail),
      prediction: sanitizeHtml(a.prediction),
      wikiBody: sanitizeHtml(a.wikiBody),
      links: {
        website: url(a.links.website),
        whitepaper: url(a.links.whitepaper),
        discord: url(a.links.discord),
        x: url(a.links.x),
      },
    },
  };
}
