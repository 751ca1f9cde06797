import type { TgArticleInputRaw } from "@meridian/contracts";
import { Form, Input, Select, Switch } from "antd";
import { useTranslation } from "react-i18next";
import { AdminEditorModal, type EditorDialogProps } from "../../../ui/admin-editor.tsx";
import { useContentEditor } from "../../../ui/content-editor.tsx";
import { type AdminArticleRow, adminCall, adminPaths, fromInputTime, toInputTime } from "./admin-api.ts";

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

interface FormValues {
  slug: string;
  appSlug: string;
  title: string;
  summary?: string;
  body?: string;
  publishedAt?: string;
  published: boolean;
}

/** Texts an article holds per language (docs/content.md); `body` makes it written. */
const ARTICLE_TEXT_FIELDS = ["title", "summary", "body"] as const;

/** The article form's values for the stored English article. */
function english(stored: TgArticleInputRaw): FormValues {
  return {
    slug: stored.slug,
    appSlug: stored.appSlug,
    title: stored.title,
    summary: stored.summary ?? "",
    body: stored.body ?? "",
    published: stored.published ?? true,
    publishedAt: toInputTime(stored.publishedAt),
  };
}

/**
 * Create or edit an article. English edits the whole article; another language (a `*`
 * marks the ones not written yet) edits only its title, summary and body, saved as that
 * language's translation. The other languages' translations travel through unchanged.
 */
export function ArticleForm({
  item,
  appSlugs,
  ...dialog
}: { item: AdminArticleRow | null; appSlugs: string[] } & EditorDialogProps) {
  const { t } = useTranslation("tgAppsAdmin");
  const [form] = Form.useForm<FormValues>();
  const editor = useContentEditor<TgArticleInputRaw, FormValues>({
    open: dialog.open,
    form,
    loadKey: item,
    load: item === null ? null : () => adminCall<TgArticleInputRaw>(adminPaths.article(item.slug), "GET"),
    initial: () => ({ published: true, publishedAt: toInputTime(Date.now()) }),
    show: (stored, code) => {
      const values = english(stored);
      if (code !== "en") {
        const own = stored.translations?.[code] ?? {};
        for (const key of ARTICLE_TEXT_FIELDS) values[key] = own[key] ?? "";
      }
      return values;
    },
  });
  const { stored, language } = editor;

  const handleSave = async () => {
    const v = await form.validateFields();
    const translations = { ...(stored?.translations ?? {}) };
    if (language !== "en" && stored !== null) {
      // A translation: the stored English article plus this language's texts only.
      translations[language] = Object.fromEntries(ARTICLE_TEXT_FIELDS.map((key) => [key, v[key] ?? ""]));
      await editor.save(
        () => adminCall(adminPaths.articles, "POST", { ...stored, translations }),
        dialog.onSaved,
      );
      return;
    }
    const body: TgArticleInputRaw = {
      slug: v.slug,
      appSlug: v.appSlug,
      title: v.title,
      summary: v.summary ?? "",
      body: v.body ?? "",
      publishedAt: fromInputTime(v.publishedAt),
      published: v.published,
      translations,
    };
    await editor.save(() => adminCall(adminPaths.articles, "POST", body), dialog.onSaved);
  };

  return (
    <AdminEditorModal
      editor={editor}
      dialog={dialog}
      title={item?.slug ?? t("articles.new")}
      onOk={handleSave}
      okText={t("save")}
      width={720}
      errorClassName="tga-admin-error"
      languages={{ label: t("contentLanguages"), testId: "article-edit-language", writtenBy: "body" }}
    >
      {/* Another language edits its texts only: the article's facts are shown, not editable. */}
      <Form form={form} layout="vertical" className="tga-admin-form" disabled={language !== "en"}>
        <Form.Item name="slug" label={t("fields.slug")} rules={[{ required: true }, { pattern: SLUG }]}>
          <Input disabled={item !== null} />
        </Form.Item>
        <Form.Item name="appSlug" label={t("fields.app")} rules={[{ required: true }]}>
          <Select showSearch options={appSlugs.map((s) => ({ value: s, label: s }))} />
        </Form.Item>
        <Form.Item
          name="title"
          label={t("fields.title")}
          rules={language === "en" ? [{ required: true }, { max: 200 }] : [{ max: 200 }]}
        >
          <Input disabled={false} />
        </Form.Item>
        <Form.Item name="summary" label={t("fields.summary")} rules={[{ max: 1000 }]}>
          <Input.TextArea rows={2} disabled={false} />
        </Form.Item>
        <Form.Item name="body" label={t("fields.body")}>
          <Input.TextArea rows={6} disabled={false} />
        </Form.Item>
        <Form.Item name="publishedAt" label={t("fields.publishedAt")}>
          <Input type="datetime-local" />
        </Form.Item>
        <Form.Item name="published" label={t("fields.published")} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </AdminEditorModal>
  );
}
