import { TG_APP_CATEGORIES } from "@meridian/contracts/tg-app-rules";
import { useTranslation } from "react-i18next";

/** Labels of the submission's fields, by body field, for "check <label>" (submit.invalid). */
export const FIELD_LABELS: Record<string, string> = {
  name: "submit.name",
  botUsername: "submit.bot",
  website: "submit.website",
  category: "submit.category",
  email: "submit.email",
  description: "submit.description",
};

/**
 * The listing request's fields (no antd, no zod): the hydrated list shows them in an antd
 * Modal (submit-dialog.tsx), a page without hydration in a native dialog its islands
 * bundle sends from (app/islands/submit.ts).
 */
export function SubmitFields() {
  const { t } = useTranslation("tgApps");
  return (
    <>
      <p className="tga-muted">{t("submit.intro")}</p>
      <label>
        {t("submit.name")}
        <input name="name" required maxLength={80} autoComplete="off" />
      </label>
      <label>
        {t("submit.bot")}
        <input
          name="botUsername"
          required
          maxLength={33}
          placeholder={t("submit.botHint")}
          autoComplete="off"
        />
      </label>
      <label>
        {t("submit.website")}
        <input name="website" type="url" maxLength={300} placeholder="https://" />
      </label>
      <label>
        {t("submit.category")}
        <select name="category" defaultValue="2">
          {TG_APP_CATEGORIES.map((c) => (
            <option key={c.id} value={c.id}>
              {t(`categories.${c.key}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("submit.email")}
        <input name="email" type="email" required maxLength={254} autoComplete="email" />
      </label>
      <label>
        {t("submit.description")}
        <textarea name="description" required minLength={10} maxLength={2000} rows={4} />
      </label>
    </>
  );
}
