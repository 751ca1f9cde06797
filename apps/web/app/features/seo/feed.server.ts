import { isoDate, xmlEscape } from "./xml.ts";

export interface FeedEntry {
  id: string;
  title: string;
  summary: string;
  /** Absolute URL of the page. */
  url: string;
  updated: number;
  published: number;
}

export interface FeedInput {
  /** Absolute URL of the feed itself. */
  self: string;
  /** Absolute URL of the page the feed describes. */
  home: string;
  title: string;
  subtitle: string;
  lang: string;
  entries: FeedEntry[];
}

/** An Atom 1.0 document. */
export function atomXml(feed: FeedInput): string {
  const updated = feed.entries.reduce((max, e) => Math.max(max, e.updated), 0);
  const entries = feed.entries.map(
    (e) =>
      `<entry><id>${xmlEscape(e.id)}</id><title>${xmlEscape(e.title)}</title><link rel="alternate" href="${xmlEscape(e.url)}"/><published>${isoDate(e.published)}</published><updated>${isoDate(e.updated)}</updated><summary>${xmlEscape(e.summary)}</summary></entry>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xmlEscape(feed.lang)}">
<id>${xmlEscape(feed.self)}</id>
<title>${xmlEscape(feed.title)}</title>
<subtitle>${xmlEscape(feed.subtitle)}</subtitle>
<link rel="self" type="application/atom+xml" href="${xmlEscape(feed.self)}"/>
<link rel="alternate" type="text/html" href="${xmlEscape(feed.home)}"/>
<updated>${isoDate(updated || 0)}</updated>
<author><name>Meridian</name></author>
${entries.join("\n")}
</feed>
`;
}
