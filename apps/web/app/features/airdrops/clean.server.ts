import type { AirdropDetailResult } from "@meridian/contracts";
import { sanitizeUrl } from "@meridian/sanitize";

/**
 * Project links must pass the URL allow-list. Rich text is NOT sanitised here: the server
 * stores it clean (bounded and sanitised on write, cleaned again at start when the
 * sanitiser's version changes), and sanitising per page view let one hostile field cost
 * a second of CPU on every visit.
 */
export function cleanDetail(detail: AirdropDetailResult): AirdropDetailResult {
  const a = detail.airdrop;
  const url = (u: string) => (u ? sanitizeUrl(u, { warn: false }) : "");
  return {
    ...detail,
    airdrop: {
      ...a,
      links: {
        website: url(a.links.website),
        whitepaper: url(a.links.whitepaper),
        discord: url(a.links.discord),
        x: url(a.links.x),
      },
    },
  };
}
