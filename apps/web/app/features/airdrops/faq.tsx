import type { FaqItem } from "@meridian/contracts";
import { Collapse } from "antd";

/**
 * FAQ as an accordion: antd Collapse headers are buttons with aria-expanded, reachable
 * by Tab and toggled with Enter or Space. Answers are rendered on the server too
 * (forceRender), so crawlers and no-JS visitors get them.
 */
export function Faq({ id, title, items }: { id: string; title: string; items: FaqItem[] }) {
  if (items.length === 0) return null;
  return (
    <section className="ad-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <Collapse
        className="ad-faq"
        accordion
        items={items.map((item, i) => ({
          key: String(i),
          label: (
            <h3 className="ad-faq-q" dir="auto">
              {item.question}
            </h3>
          ),
          children: <p dir="auto">{item.answer}</p>,
          forceRender: true,
        }))}
      />
    </section>
  );
}
