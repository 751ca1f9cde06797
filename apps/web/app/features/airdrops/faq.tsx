import type { FaqItem } from "@meridian/contracts";
import { useState } from "react";
import type { TextLang } from "./parts.tsx";

/**
 * FAQ as an accordion (WAI-ARIA pattern): each question is a button with aria-expanded in
 * a heading, reachable by Tab and toggled with Enter or Space; one answer open at a time.
 * Answers are in the server markup (hidden, not absent), so crawlers and no-JS visitors
 * get them. Plain elements rather than antd Collapse keep motion and Collapse code out of
 * the first load.
 */
export function Faq({
  id,
  title,
  items,
  textLang,
}: {
  id: string;
  title: string;
  items: FaqItem[];
  /** Set when the items are in another language than the page. */
  textLang?: TextLang;
}) {
  const [open, setOpen] = useState<number | null>(null);
  if (items.length === 0) return null;
  return (
    <section className="ad-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="ad-faq" lang={textLang?.lang} dir={textLang?.dir}>
        {items.map((item, i) => {
          const expanded = open === i;
          return (
            <div key={item.question} className="ad-faq-item" data-open={expanded || undefined}>
              <h3 className="ad-faq-q" dir="auto">
                <button
                  type="button"
                  className="ad-faq-header"
                  id={`${id}-q${i}`}
                  aria-expanded={expanded}
                  aria-controls={`${id}-a${i}`}
                  onClick={() => setOpen(expanded ? null : i)}
                >
                  <span aria-hidden className="ad-faq-mark" />
                  {item.question}
                </button>
              </h3>
              <section id={`${id}-a${i}`} aria-labelledby={`${id}-q${i}`} hidden={!expanded}>
                <p dir="auto">{item.answer}</p>
              </section>
            </div>
          );
        })}
      </div>
    </section>
  );
}
