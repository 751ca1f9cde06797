import { GLOSSARY } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { type ContentLibrary, loadContent } from "./files.ts";

/**
 * What the demo content must not contradict (docs/content.md, "Consistent data"): its
 * dates are whole days relative to the seed day, and the pages show them beside each
 * other and beside the news, so a reader sees any disagreement.
 */
const lib: ContentLibrary = loadContent();
const airdrops = new Map(lib.airdrops.map((a) => [a.slug, a]));

describe("airdrop dates", () => {
  it("start before end, claim not before the end", () => {
    const wrong = lib.airdrops
      .filter(
        ({ item: { days } }) => !(days.start < days.end && (days.claim === null || days.claim >= days.end)),
      )
      .map((a) => `${a.slug} ${JSON.stringify(a.item.days)}`);
    expect(wrong).toEqual([]);
  });

  it("list on or after the start, unless marked pre-listed, and only then", () => {
    const wrong = lib.airdrops
      .filter(({ item }) => {
        const before = item.days.listing !== null && item.days.listing < item.days.start;
        return before !== (item.preListed === true);
      })
      .map((a) => `${a.slug} ${JSON.stringify(a.item.days)} preListed=${a.item.preListed ?? false}`);
    expect(wrong).toEqual([]);
  });
});

/**
 * What a news title says happened, and when it may be dated for it. Days are relative to
 * the seed day, like the item's; `day` is the news item's (minus its days ago).
 */
const NEWS_RULES: { says: RegExp; holds: (day: number, d: AirdropDays) => boolean; rule: string }[] = [
  {
    says: /\bclaims?\b/i,
    holds: (day, d) => d.claim !== null && day >= d.claim,
    rule: "on or after the claim day",
  },
  {
    says: /\blists\b|\blisting\b/i,
    holds: (day, d) => d.listing !== null && day >= d.listing,
    rule: "on or after the listing day",
  },
  {
    says: /\bgoes live\b|\blaunch(es)?\b|\bdistributes\b|\bopens\b/i,
    holds: (day, d) => day >= d.start,
    rule: "on or after the start",
  },
  { says: /\babout to start\b|\bplans\b/i, holds: (day, d) => day < d.start, rule: "before the start" },
  {
    says: /\bfinal days\b/i,
    holds: (day, d) => day < d.end && day >= d.end - 14,
    rule: "in the last two weeks",
  },
];
type AirdropDays = ContentLibrary["airdrops"][number]["item"]["days"];

describe("airdrop news", () => {
  it("is dated consistently with its airdrop", () => {
    const wrong: string[] = [];
    for (const news of lib.news) {
      const slug = news.item.airdropSlug;
      if (slug === null) continue;
      const airdrop = airdrops.get(slug);
      if (airdrop === undefined) continue; // content:check reports unknown slugs
      const day = -news.item.daysAgo;
      const title = news.texts.en.title;
      for (const { says, holds, rule } of NEWS_RULES) {
        if (says.test(title) && !holds(day, airdrop.item.days)) {
          wrong.push(
            `${news.slug} (day ${day}, "${title}") must be dated ${rule}: ${JSON.stringify(airdrop.item.days)}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("is never dated after today nor long before its airdrop is announced", () => {
    // A year before the start is the most any demo news precedes its campaign.
    const wrong = lib.news
      .filter((n) => {
        const airdrop = n.item.airdropSlug === null ? undefined : airdrops.get(n.item.airdropSlug);
        return airdrop !== undefined && -n.item.daysAgo < airdrop.item.days.start - 365;
      })
      .map((n) => n.slug);
    expect(wrong).toEqual([]);
  });
});

describe("the glossary", () => {
  it("holds in every written language of the content files", () => {
    const wrong: string[] = [];
    for (const [kind, items] of Object.entries({
      airdrops: lib.airdrops,
      news: lib.news,
      apps: lib.apps,
      articles: lib.articles,
    })) {
      for (const item of items) {
        for (const [lang, text] of Object.entries(item.texts)) {
          for (const term of GLOSSARY[lang as keyof typeof GLOSSARY] ?? []) {
            if (term.avoid.test(JSON.stringify(text)))
              wrong.push(`${kind}/${item.slug}/${lang}.json: "${term.term}" is ${term.use}`);
          }
        }
      }
    }
    for (const [page, texts] of Object.entries(lib.pages)) {
      for (const [lang, text] of Object.entries(texts)) {
        for (const term of GLOSSARY[lang as keyof typeof GLOSSARY] ?? []) {
          if (term.avoid.test(JSON.stringify(text)))
            wrong.push(`pages/${page}/${lang}.json: "${term.term}" is ${term.use}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
