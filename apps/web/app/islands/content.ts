import { countdownParts } from "@meridian/contracts/airdrop-rules";

/** FAQ accordions (features/airdrops/faq.tsx): one answer open at a time. */
export function wireAccordions(root: Document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>(".ad-faq .ad-faq-header")) {
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      const faq = button.closest(".ad-faq");
      for (const other of faq?.querySelectorAll<HTMLButtonElement>(".ad-faq-header") ?? []) {
        const expanded = other === button && open;
        other.setAttribute("aria-expanded", String(expanded));
        const answer = root.getElementById(other.getAttribute("aria-controls") ?? "");
        if (answer) answer.hidden = !expanded;
        const item = other.closest<HTMLElement>(".ad-faq-item");
        if (item) item.toggleAttribute("data-open", expanded);
      }
    });
  }
}

interface CountdownTexts {
  closed: string;
  ended: string;
  /** `{d}`, `{h}`, `{m}` stand for the days, hours and minutes left. */
  label: string;
}

/** Countdowns (features/airdrops/countdown.tsx): tick every second on the browser's clock. */
export function wireCountdowns(root: Document): void {
  for (const box of root.querySelectorAll<HTMLElement>(".ad-countdown[data-end-at]")) {
    const endAt = Number(box.dataset.endAt);
    const texts = JSON.parse(box.dataset.texts ?? "{}") as CountdownTexts;
    const timer = box.querySelector<HTMLElement>('[role="timer"]');
    const values = [...box.querySelectorAll<HTMLElement>(".ad-countdown-unit strong")];
    if (!timer || values.length !== 4 || !Number.isFinite(endAt)) continue;
    const tick = (): boolean => {
      const left = endAt - Date.now();
      const { days, hours, minutes, seconds } = countdownParts(left);
      [days, hours, minutes, seconds].forEach((value, i) => {
        const text = String(value).padStart(2, "0");
        const cell = values[i];
        if (cell && cell.textContent !== text) cell.textContent = text;
      });
      timer.setAttribute(
        "aria-label",
        texts.label
          .replace("{d}", String(days))
          .replace("{h}", String(hours))
          .replace("{m}", String(minutes)),
      );
      if (left > 0) return true;
      const title = box.querySelector("[data-title]");
      if (title) title.textContent = texts.closed;
      const ends = box.querySelector("[data-ends]");
      if (ends) ends.textContent = texts.ended;
      return false;
    };
    if (!tick()) continue;
    const interval = window.setInterval(() => {
      if (!tick()) window.clearInterval(interval);
    }, 1000);
  }
}

/** A button that swaps its text between `data-more` and `data-less` with its state. */
function label(button: HTMLElement, expanded: boolean): void {
  button.setAttribute("aria-expanded", String(expanded));
  const text = expanded ? button.dataset.less : button.dataset.more;
  if (text) button.textContent = text;
}

/** Read more (features/tg-apps/read-more.tsx): the long text, collapsed to a few lines until asked. */
export function wireReadMore(root: Document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>(".tga-readmore > button[aria-controls]")) {
    button.addEventListener("click", () => {
      const prose = root.getElementById(button.getAttribute("aria-controls") ?? "");
      const expanded = button.getAttribute("aria-expanded") !== "true";
      prose?.classList.toggle("tga-prose-collapsed", !expanded);
      label(button, expanded);
    });
  }
}

/** Screenshots (features/tg-apps/screenshots.tsx): the rest wait in a `<template>` until Show more. */
export function wireScreenshots(root: Document): void {
  for (const template of root.querySelectorAll<HTMLTemplateElement>("template[data-more-shots]")) {
    const list = root.getElementById(template.dataset.moreShots ?? "");
    const button = root.querySelector<HTMLButtonElement>(
      `button[aria-controls="${CSS.escape(list?.id ?? "")}"]`,
    );
    if (!list || !button) continue;
    let extra: Element[] = [];
    button.addEventListener("click", () => {
      const expanded = extra.length === 0;
      if (expanded) {
        extra = [...(template.content.cloneNode(true) as DocumentFragment).children];
        list.append(...extra);
      } else {
        for (const item of extra) item.remove();
        extra = [];
      }
      label(button, expanded);
    });
  }
}
