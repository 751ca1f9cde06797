import type { AirdropInputRaw, FaqItem, GuideStep } from "@meridian/contracts";
import { AIRDROP_REQUIREMENTS, AIRDROP_TYPES } from "@meridian/contracts/airdrop-rules";
import { Form, type FormInstance, Input, Modal, Select, Switch } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { MediaEditor } from "../media/media-editor.tsx";
import { ContentLanguageSwitch, hasText } from "../seo/language-coverage.tsx";
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

/** Fills the airdrop form with the stored record, its texts in `lang` unless English. */
function showLanguage(form: FormInstance<FormValues>, record: Stored, lang: string): void {
  const values: FormValues = { ...(record as unknown as FormValues) };
  for (const key of TIME_FIELDS) values[key] = toInputTime(record[key]);
  if (lang !== "en") {
    const own = record.translations?.[lang] ?? {};
    for (const key of LANGUAGE_FIELDS) values[key] = typeof own[key] === "string" ? (own[key] as string) : "";
    values.guide = Array.isArray(own.guide) ? (own.guide as Record<string, string>[]) : [];
    values.faq = Array.isArray(own.faq) ? (own.faq as Record<string, string>[]) : [];
  }
  form.setFieldsValue(values);
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
export function AirdropForm({
  slug,
  open,
  onClose,
  onSaved,
}: {
  slug: string | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation(["airdropsAdmin", "airdrops"]);
  const [form] = Form.useForm<FormValues>();
  const hydrated = useHydrated();
  const [stored, setStored] = useState<Stored | null>(null);
  const [error, setError] = useState("");
  // The language being edited: English edits the whole airdrop, another one only its texts.
  const [language, setLanguage] = useState("en");

  useEffect(() => {
    if (!open) return;
    setError("");
    setLanguage("en");
    form.resetFields();
    if (slug === null) {
      setStored(null);
      form.setFieldsValue({ type: "standard", requirements: [], published: false });
      return;
    }
    void adminCall<Stored>(adminPaths.airdrop(slug), "GET").then(
      (record) => {
        setStored(record);
        showLanguage(form, record, "en");
      },
      (e: Error) => setError(e.message),
    );
  }, [open, slug, form]);

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
      try {
        await adminCall(adminPaths.update(stored.id), "PUT", {
          ...english,
          translations: { [language]: texts },
        });
        onSaved();
      } catch (e) {
        setError((e as Error).message);
      }
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
    try {
      if (stored?.id === undefined) await adminCall(adminPaths.airdrops, "POST", body);
      else await adminCall(adminPaths.update(stored.id), "PUT", body);
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <Modal
      open={open}
      title={slug ?? t("new")}
      onCancel={onClose}
      onOk={handleSave}
      width={760}
      forceRender={hydrated}
    >
      {error ? (
        <p role="alert" className="ad-error">
          {error}
        </p>
      ) : null}
      {stored?.id !== undefined ? (
        <ContentLanguageSwitch
          label={t("contentLanguages")}
          value={language}
          testId="airdrop-edit-language"
          written={(code) => hasText(stored.translations, code, "about")}
          onChange={(code) => {
            setLanguage(code);
            showLanguage(form, stored, code);
          }}
        />
      ) : null}
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
    </Modal>
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
export function NewsForm({
  item,
  open,
  onClose,
  onSaved,
}: {
  item: NewsItem | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation("airdropsAdmin");
  const [form] = Form.useForm<FormValues>();
  const hydrated = useHydrated();
  const [error, setError] = useState("");
  const [language, setLanguage] = useState("en");
  const [translations, setTranslations] = useState<Record<string, Record<string, unknown>> | null>(null);
  useEffect(() => {
    if (!open) return;
    setError("");
    setLanguage("en");
    setTranslations(null);
    form.resetFields();
    form.setFieldsValue(item ? english(item) : { published: false, publishedAt: toInputTime(Date.now()) });
    if (item === null) return;
    void adminCall<{ translations: Record<string, Record<string, unknown>> }>(
      adminPaths.newsUpdate(item.id),
      "GET",
    ).then(
      (stored) => setTranslations(stored.translations),
      (e: Error) => setError(e.message),
    );
  }, [open, item, form]);
  const switchLanguage = (code: string) => {
    if (item === null) return;
    setLanguage(code);
    const values = english(item);
    if (code !== "en") {
      const own = translations?.[code] ?? {};
      for (const key of NEWS_TEXT_FIELDS)
        values[key] = typeof own[key] === "string" ? (own[key] as string) : "";
    }
    form.setFieldsValue(values);
  };
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
    try {
      await adminCall(item ? adminPaths.newsUpdate(item.id) : adminPaths.news, item ? "PUT" : "POST", body);
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const translating = language !== "en";
  return (
    <Modal
      open={open}
      title={item?.slug ?? t("newNews")}
      onCancel={onClose}
      onOk={handleSave}
      forceRender={hydrated}
    >
      {error ? (
        <p role="alert" className="ad-error">
          {error}
        </p>
      ) : null}
      {item !== null && translations !== null ? (
        <ContentLanguageSwitch
          label={t("contentLanguages")}
          value={language}
          testId="news-edit-language"
          written={(code) => hasText(translations, code, "body")}
          onChange={switchLanguage}
        />
      ) : null}
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
    </Modal>
  );
}
