import type { AirdropInputRaw, FaqItem, GuideStep } from "@meridian/contracts";
import { AIRDROP_REQUIREMENTS, AIRDROP_TYPES } from "@meridian/contracts/airdrop-rules";
import { Form, Input, Select, Switch } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AdminEditorModal, type EditorDialogProps } from "../../ui/admin-editor.tsx";
import { type Translations, useContentEditor } from "../../ui/content-editor.tsx";
import { MediaEditor } from "../../ui/media-editor.tsx";
import { adminCall, adminPaths, fromInputTime, toInputTime } from "./admin-api.ts";

type Stored = AirdropInputRaw & {
  id?: number;
  startAt: number;
  endAt: number;
  translations?: Record<string, Record<string, unknown>>;
};

/** Fields written per language (docs/content.md); the others are the airdrop's facts. */
const LANGUAGE_FIELDS = [
  "description",
  "about",
  "airdropInfo",
  "priceDetail",
  "prediction",
  "wikiTitle",
  "wikiBody",
];

/** Form fields in order; their labels are `airdropsAdmin:fields.<name>`. */
const TEXT_FIELDS = [
  "name",
  "slug",
  "ticker",
  "chain",
  "marketSymbol",
  "estValue",
  "seedPrice",
  "predictedPrice",
  "websiteUrl",
  "whitepaperUrl",
  "discordUrl",
  "xUrl",
  "wikiTitle",
] as const;
const HTML_FIELDS = ["about", "airdropInfo", "priceDetail", "prediction", "wikiBody"] as const;
const TIME_FIELDS = ["startAt", "endAt", "listingAt", "claimAt"] as const;

type FormValues = Record<string, string | boolean | string[] | Record<string, string>[] | undefined>;

/** The airdrop form's values for the stored record, its texts in `lang` unless English. */
function languageValues(record: Stored, lang: string): FormValues {
  const values: FormValues = { ...(record as unknown as FormValues) };
  for (const key of TIME_FIELDS) values[key] = toInputTime(record[key]);
  if (lang !== "en") {
    const own = record.translations?.[lang] ?? {};
    for (const key of LANGUAGE_FIELDS) values[key] = typeof own[key] === "string" ? (own[key] as string) : "";
    values.guide = Array.isArray(own.guide) ? (own.guide as Record<string, string>[]) : [];
    values.faq = Array.isArray(own.faq) ? (own.faq as Record<string, string>[]) : [];
  }
  return values;
}

/**
 * Whether the page has hydrated. The dialogs below keep their form mounted while closed
 * (`forceRender`), so `form.setFieldsValue` on opening always reaches a connected form;
 * but a portal rendered during hydration has no server HTML to match (React error #418),
 * so they start rendering it only once the page has hydrated.
 */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * Create or edit one airdrop. English edits the whole record; choosing another language
 * (a `*` marks the ones not written yet) edits only that language's texts, saved as its
 * translation while the other languages stay as stored.
 */
export function AirdropForm({ slug, ...dialog }: { slug: string | null } & EditorDialogProps) {
  const { t } = useTranslation(["airdropsAdmin", "airdrops"]);
  const [form] = Form.useForm<FormValues>();
  const hydrated = useHydrated();
  const editor = useContentEditor<Stored, FormValues>({
    open: dialog.open,
    form,
    loadKey: slug,
    load: slug === null ? null : () => adminCall<Stored>(adminPaths.airdrop(slug), "GET"),
    initial: () => (slug === null ? { type: "standard", requirements: [], published: false } : {}),
    show: languageValues,
  });
  const { stored, language } = editor;

  const handleSave = async () => {
    const values = await form.validateFields();
    if (language !== "en" && stored?.id !== undefined) {
      // A translation: the stored English airdrop plus this language's texts only.
      const { id: _id, translations: _t, ...english } = stored as Stored & Record<string, unknown>;
      delete english.createdAt;
      delete english.updatedAt;
      const texts: Record<string, unknown> = {
        guide: listOf<GuideStep>(values.guide, "title"),
        faq: listOf<FaqItem>(values.faq, "question"),
      };
      for (const key of LANGUAGE_FIELDS) texts[key] = values[key] ?? "";
      const id = stored.id;
      await editor.save(
        () => adminCall(adminPaths.update(id), "PUT", { ...english, translations: { [language]: texts } }),
        dialog.onSaved,
      );
      return;
    }
    const body: Record<string, unknown> = {
      ...values,
      guide: listOf<GuideStep>(values.guide, "title"),
      faq: listOf<FaqItem>(values.faq, "question"),
    };
    for (const key of TIME_FIELDS) body[key] = fromInputTime(values[key] as string | undefined);
    delete body.id;
    delete body.createdAt;
    delete body.updatedAt;
    const id = stored?.id;
    await editor.save(
      () =>
        id === undefined
          ? adminCall(adminPaths.airdrops, "POST", body)
          : adminCall(adminPaths.update(id), "PUT", body),
      dialog.onSaved,
    );
  };

  return (
    <AdminEditorModal
      editor={editor}
      dialog={dialog}
      title={slug ?? t("new")}
      onOk={handleSave}
      width={760}
      forceRender={hydrated}
      errorClassName="ad-error"
      languages={{ label: t("contentLanguages"), testId: "airdrop-edit-language", writtenBy: "about" }}
    >
      <Form form={form} layout="vertical" className="ad-admin-form">
        {TEXT_FIELDS.map((name) => (
          <Form.Item
            key={name}
            name={name}
            label={t(`fields.${name}`)}
            rules={name === "name" || name === "slug" ? [{ required: true }] : []}
          >
            <Input />
          </Form.Item>
        ))}
        <Form.Item name="type" label={t("fields.type")}>
          <Select options={AIRDROP_TYPES.map((v) => ({ value: v, label: t(`airdrops:type.${v}`) }))} />
        </Form.Item>
        <Form.Item name="requirements" label={t("fields.requirements")}>
          <Select
            mode="multiple"
            options={AIRDROP_REQUIREMENTS.map((v) => ({ value: v, label: t(`airdrops:requirement.${v}`) }))}
          />
        </Form.Item>
        {TIME_FIELDS.map((name) => (
          <Form.Item key={name} name={name} label={t(`fields.${name}`)}>
            <Input type="datetime-local" />
          </Form.Item>
        ))}
        <Form.Item name="description" label={t("fields.description")} rules={[{ required: true }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
        {HTML_FIELDS.map((name) => (
          <Form.Item key={name} name={name} label={t(`fields.${name}`)}>
            <Input.TextArea rows={4} />
          </Form.Item>
        ))}
        <ListEditor name="guide" fields={GUIDE_FIELDS} />
        <ListEditor name="faq" fields={FAQ_FIELDS} />
        <Form.Item name="published" label={t("published")} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
      {slug !== null ? <MediaEditor owner="airdrop" slug={slug} /> : null}
    </AdminEditorModal>
  );
}

/** A list row's field; its label is `airdropsAdmin:<list>.<name>`. */
type ListField = readonly [name: string, multiline: boolean, required: boolean];
const GUIDE_FIELDS: readonly ListField[] = [
  ["title", false, true],
  ["body", true, false],
];
const FAQ_FIELDS: readonly ListField[] = [
  ["question", false, true],
  ["answer", true, false],
];

/** Rows the editor left half-filled (no title or question) are dropped rather than failing. */
function listOf<T>(value: unknown, key: string): T[] {
  if (!Array.isArray(value)) return [];
  return value.filter((row): row is T => {
    const text = (row as Record<string, unknown> | null)?.[key];
    return typeof text === "string" && text.trim() !== "";
  });
}

/**
 * Guide steps or FAQ items: plain text (rendered escaped), ordered, added, moved and removed
 * in place. Buttons are plain shell buttons so the admin stylesheet needs no more antd.
 */
function ListEditor({ name, fields }: { name: "guide" | "faq"; fields: readonly ListField[] }) {
  const { t } = useTranslation("airdropsAdmin");
  return (
    <fieldset className="ad-admin-list" data-list={name}>
      <legend>{t(`${name}.legend`)}</legend>
      <Form.List name={name}>
        {(rows, { add: append, remove, move }) => (
          <>
            {rows.map((row, index) => (
              <div key={row.key} className="ad-admin-list-row">
                <div className="ad-admin-list-head">
                  <strong>{t(`${name}.item`, { n: index + 1 })}</strong>
                  <button
                    type="button"
                    className="shell-button shell-button-outline"
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                    aria-label={t(`${name}.moveUp`, { n: index + 1 })}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="shell-button shell-button-outline"
                    disabled={index === rows.length - 1}
                    onClick={() => move(index, index + 1)}
                    aria-label={t(`${name}.moveDown`, { n: index + 1 })}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="shell-button shell-button-outline"
                    onClick={() => remove(row.name)}
                  >
                    {t(`${name}.remove`, { n: index + 1 })}
                  </button>
                </div>
                {fields.map(([field, multiline, required]) => (
                  <Form.Item
                    key={field}
                    name={[row.name, field]}
                    label={t(`${name}.${field}`)}
                    rules={required ? [{ required: true, whitespace: true }] : []}
                  >
                    {multiline ? <Input.TextArea rows={2} /> : <Input />}
                  </Form.Item>
                ))}
              </div>
            ))}
            <button
              type="button"
              className="shell-button shell-button-outline"
              onClick={() => append(Object.fromEntries(fields.map(([field]) => [field, ""])))}
              disabled={rows.length >= 20}
            >
              {t(`${name}.add`)}
            </button>
          </>
        )}
      </Form.List>
    </fieldset>
  );
}

/** Texts a news item holds per language (docs/content.md); its `body` makes it written. */
const NEWS_TEXT_FIELDS = ["title", "summary", "body"] as const;

interface NewsItem {
  id: number;
  slug: string;
  title: string;
  summary: string;
  body: string;
  airdropSlug: string | null;
  publishedAt: number;
  published: boolean;
}

/** The news form's values for the stored English item. */
function english(item: NewsItem): FormValues {
  return {
    slug: item.slug,
    title: item.title,
    summary: item.summary,
    body: item.body,
    published: item.published,
    airdropSlug: item.airdropSlug ?? "",
    publishedAt: toInputTime(item.publishedAt),
  };
}

/**
 * Create or edit a news item. English edits the whole item; another language (switch
 * shown once the item exists) edits only that language's title, summary and body, saved
 * as its translation while the other languages stay as stored.
 */
export function NewsForm({ item, ...dialog }: { item: NewsItem | null } & EditorDialogProps) {
  const { t } = useTranslation("airdropsAdmin");
  const [form] = Form.useForm<FormValues>();
  const hydrated = useHydrated();
  const editor = useContentEditor<{ item: NewsItem; translations: Translations }, FormValues>({
    open: dialog.open,
    form,
    loadKey: item,
    load:
      item === null
        ? null
        : async () => {
            const stored = await adminCall<{ translations: Translations }>(
              adminPaths.newsUpdate(item.id),
              "GET",
            );
            return { item, translations: stored.translations };
          },
    initial: () => (item ? english(item) : { published: false, publishedAt: toInputTime(Date.now()) }),
    show: (stored, code) => {
      const values = english(stored.item);
      if (code !== "en") {
        const own = stored.translations[code] ?? {};
        for (const key of NEWS_TEXT_FIELDS)
          values[key] = typeof own[key] === "string" ? (own[key] as string) : "";
      }
      return values;
    },
  });
  const { language } = editor;
  const handleSave = async () => {
    const v = await form.validateFields();
    const body =
      language !== "en" && item !== null
        ? {
            // A translation: the stored English item plus this language's texts only.
            slug: item.slug,
            title: item.title,
            summary: item.summary,
            body: item.body,
            airdropSlug: item.airdropSlug,
            publishedAt: item.publishedAt,
            published: item.published,
            translations: {
              [language]: Object.fromEntries(NEWS_TEXT_FIELDS.map((key) => [key, v[key] ?? ""])),
            },
          }
        : {
            slug: v.slug,
            title: v.title,
            summary: v.summary ?? "",
            body: v.body ?? "",
            airdropSlug: v.airdropSlug ? v.airdropSlug : null,
            publishedAt: fromInputTime(v.publishedAt as string | undefined) ?? Date.now(),
            published: v.published === true,
          };
    await editor.save(
      () => adminCall(item ? adminPaths.newsUpdate(item.id) : adminPaths.news, item ? "PUT" : "POST", body),
      dialog.onSaved,
    );
  };
  const translating = language !== "en";
  return (
    <AdminEditorModal
      editor={editor}
      dialog={dialog}
      title={item?.slug ?? t("newNews")}
      onOk={handleSave}
      forceRender={hydrated}
      errorClassName="ad-error"
      languages={{ label: t("contentLanguages"), testId: "news-edit-language", writtenBy: "body" }}
    >
      <Form form={form} layout="vertical">
        <Form.Item name="slug" label={t("newsForm.slug")} rules={[{ required: true }]}>
          <Input disabled={translating} />
        </Form.Item>
        <Form.Item name="title" label={t("newsForm.title")} rules={translating ? [] : [{ required: true }]}>
          <Input />
        </Form.Item>
        <Form.Item name="airdropSlug" label={t("newsForm.airdropSlug")}>
          <Input disabled={translating} />
        </Form.Item>
        <Form.Item name="summary" label={t("newsForm.summary")}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item name="body" label={t("newsForm.body")}>
          <Input.TextArea rows={4} />
        </Form.Item>
        <Form.Item name="publishedAt" label={t("newsForm.publishedAt")}>
          <Input type="datetime-local" disabled={translating} />
        </Form.Item>
        <Form.Item name="published" label={t("published")} valuePropName="checked">
          <Switch disabled={translating} />
        </Form.Item>
      </Form>
    </AdminEditorModal>
  );
}
