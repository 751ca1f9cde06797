import { TG_APPS_API, tgSubmissionBodySchema } from "@meridian/contracts";
import { Modal } from "antd";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { AntdConfig } from "../shell/antd-config.tsx";
import { postJson } from "./post.ts";
import { FIELD_LABELS, SubmitFields } from "./submit-fields.tsx";

type Status = { kind: "idle" } | { kind: "sending" } | { kind: "done"; ok: boolean; text: string };

/** The listing request form; it lands in the administrators' review queue. */
export function SubmitDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation("tgApps");
  const [status, setStatus] = useState<Status>({ kind: "idle" });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = tgSubmissionBodySchema.safeParse({
      name: String(form.get("name") ?? ""),
      botUsername: String(form.get("botUsername") ?? ""),
      website: String(form.get("website") ?? ""),
      category: Number(form.get("category")),
      email: String(form.get("email") ?? ""),
      description: String(form.get("description") ?? ""),
    });
    if (!parsed.success) {
      const field = String(parsed.error.issues[0]?.path[0] ?? "name");
      setStatus({
        kind: "done",
        ok: false,
        text: t("submit.invalid", { label: t(FIELD_LABELS[field] ?? "submit.name") }),
      });
      return;
    }
    setStatus({ kind: "sending" });
    const answer = await postJson(TG_APPS_API.submissions, parsed.data);
    if (answer.ok) setStatus({ kind: "done", ok: true, text: t("submit.success") });
    else
      setStatus({
        kind: "done",
        ok: false,
        text: answer.status === 429 ? t("submit.tooMany") : t("submit.error"),
      });
  };

  return (
    <AntdConfig>
      <Modal open={open} onCancel={onClose} footer={null} title={t("submit.title")} destroyOnHidden>
        <form className="tga-form" onSubmit={handleSubmit} noValidate>
          <SubmitFields />
          {status.kind === "done" ? (
            <p role="status" className={status.ok ? "tga-ok" : "tga-error"}>
              {status.text}
            </p>
          ) : null}
          <div className="tga-form-actions">
            <button type="button" className="tga-button" onClick={onClose}>
              {t("submit.cancel")}
            </button>
            <button
              type="submit"
              className="tga-button tga-button-primary"
              disabled={status.kind === "sending"}
            >
              {t("submit.send")}
            </button>
          </div>
        </form>
      </Modal>
    </AntdConfig>
  );
}
