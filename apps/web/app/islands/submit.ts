interface SubmitTexts {
  /** "Check <field label>", by body field. */
  invalid: Record<string, string>;
  success: string;
  tooMany: string;
  error: string;
}

/**
 * The listing request form of the apps list (features/tg-apps/list-page.tsx, in a native
 * dialog on a page without hydration): checked with the contract's schema and sent through
 * the API client, both loaded on the first submission (./submit-send.ts), as the hydrated
 * page's dialog does (features/tg-apps/submit-dialog.tsx).
 */
export function wireSubmissions(root: Document): void {
  for (const form of root.querySelectorAll<HTMLFormElement>("dialog form.tga-form[data-texts]")) {
    const texts = JSON.parse(form.dataset.texts ?? "{}") as SubmitTexts;
    const status = form.querySelector<HTMLElement>('[role="status"]');
    const send = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    const show = (ok: boolean, text: string) => {
      if (!status) return;
      status.textContent = text;
      status.className = ok ? "tga-ok" : "tga-error";
      status.hidden = false;
    };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(form);
      if (send) send.disabled = true;
      void import("./submit-send.ts")
        .then(({ sendSubmission }) => sendSubmission(data))
        .then(
          (outcome) => {
            if (outcome.kind === "invalid")
              show(false, texts.invalid[outcome.field] ?? texts.invalid.name ?? "");
            else if (outcome.kind === "sent") show(true, texts.success);
            else show(false, outcome.status === 429 ? texts.tooMany : texts.error);
          },
          () => show(false, texts.error),
        )
        .finally(() => {
          if (send) send.disabled = false;
        });
    });
    // A closed dialog opens blank next time, as the hydrated page's (destroyOnHidden).
    form.closest("dialog")?.addEventListener("close", () => {
      form.reset();
      if (status) status.hidden = true;
    });
  }
}
