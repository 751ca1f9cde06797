import type { AirdropInputRaw, FaqItem, GuideStep } from "@meridian/contracts";
import { AIRDROP_REQUIREMENTS, AIRDROP_TYPES } from "@meridian/contracts/airdrop-rules";
import { Form, Input, Modal, Select, Switch } from "antd";
import { useEffect, useState } from "react";
import { adminCall, adminPaths, fromInputTime, toInputTime } from "./admin-api.ts";

type Stored = AirdropInputRaw & { id?: number; startAt: number; endAt: number };

const TEXT_FIELDS = [
  ["name", "Name"],
  ["slug", "Slug"],
  ["ticker", "Ticker"],
  ["chain", "Chain"],
  ["marketSymbol", "Market symbol (e.g. NOTUSDT)"],
  ["estValue", "Est. value (USD)"],
  ["seedPrice", "Current price (USD)"],
  ["predictedPrice", "Predicted listing price (USD)"],
  ["websiteUrl", "Website"],
  ["whitepaperUrl", "Whitepaper"],
  ["discordUrl", "Discord"],
  ["xUrl", "X"],
  ["wikiTitle", "Wiki title"],
] as const;
const HTML_FIELDS = [
  ["about", "About (HTML)"],
  ["airdropInfo", "The airdrop (HTML)"],
  ["priceDetail", "Price detail (HTML)"],
  ["prediction", "Price prediction (HTML)"],
  ["wikiBody", "Wiki (HTML)"],
] as const;
const TIME_FIELDS = [
  ["startAt", "Start (UTC)"],
  ["endAt", "End (UTC)"],
  ["listingAt", "Listing (UTC)"],
  ["claimAt", "Claim time (UTC)"],
] as const;

type FormValues = Record<string, string | boolean | string[] | Record<string, string>[] | undefined>;

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

/** Create or edit one airdrop (English text; translations are kept as stored). */
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
  const [form] = Form.useForm<FormValues>();
  const hydrated = useHydrated();
  const [stored, setStored] = useState<Stored | null>(null);
  const [error, setError] = useState("");

  useEffect(() => {
    if (!open) return;
    setError("");
    form.resetFields();
    if (slug === null) {
      setStored(null);
      form.setFieldsValue({ type: "standard", requirements: [], published: false });
      return;
    }
    void adminCall<Stored>(adminPaths.airdrop(slug), "GET").then(
      (record) => {
        setStored(record);
        const values: FormValues = { ...(record as unknown as FormValues) };
        for (const [key] of TIME_FIELDS) values[key] = toInputTime(record[key]);
        form.setFieldsValue(values);
      },
      (e: Error) => setError(e.message),
    );
  }, [open, slug, form]);

  const handleSave = async () => {
    const values = await form.validateFields();
    const body: Record<string, unknown> = {
      ...values,
      guide: listOf<GuideStep>(values.guide, "title"),
      faq: listOf<FaqItem>(values.faq, "question"),
    };
    for (const [key] of TIME_FIELDS) body[key] = fromInputTime(values[key] as string | undefined);
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
      title={slug ?? "New airdrop"}
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
      <Form form={form} layout="vertical" className="ad-admin-form">
        {TEXT_FIELDS.map(([name, label]) => (
          <Form.Item
            key={name}
            name={name}
            label={label}
            rules={name === "name" || name === "slug" ? [{ required: true }] : []}
          >
            <Input />
          </Form.Item>
        ))}
        <Form.Item name="type" label="Type">
          <Select options={AIRDROP_TYPES.map((v) => ({ value: v, label: v }))} />
        </Form.Item>
        <Form.Item name="requirements" label="Requirements">
          <Select mode="multiple" options={AIRDROP_REQUIREMENTS.map((v) => ({ value: v, label: v }))} />
        </Form.Item>
        {TIME_FIELDS.map(([name, label]) => (
          <Form.Item key={name} name={name} label={label}>
            <Input type="datetime-local" />
          </Form.Item>
        ))}
        <Form.Item name="description" label="Description" rules={[{ required: true }]}>
          <Input.TextArea rows={3} />
        </Form.Item>
        {HTML_FIELDS.map(([name, label]) => (
          <Form.Item key={name} name={name} label={label}>
            <Input.TextArea rows={4} />
          </Form.Item>
        ))}
        <ListEditor
          name="guide"
          legend="Step-by-step guide"
          add="Add step"
          item="Step"
          fields={GUIDE_FIELDS}
        />
        <ListEditor name="faq" legend="FAQ" add="Add question" item="Question" fields={FAQ_FIELDS} />
        <Form.Item name="published" label="Published" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

type ListField = readonly [name: string, label: string, multiline: boolean, required: boolean];
const GUIDE_FIELDS: readonly ListField[] = [
  ["title", "Title", false, true],
  ["body", "Text", true, false],
];
const FAQ_FIELDS: readonly ListField[] = [
  ["question", "Question", false, true],
  ["answer", "Answer", true, false],
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
function ListEditor({
  name,
  legend,
  add,
  item,
  fields,
}: {
  name: string;
  legend: string;
  add: string;
  item: string;
  fields: readonly ListField[];
}) {
  return (
    <fieldset className="ad-admin-list" data-list={name}>
      <legend>{legend}</legend>
      <Form.List name={name}>
        {(rows, { add: append, remove, move }) => (
          <>
            {rows.map((row, index) => (
              <div key={row.key} className="ad-admin-list-row">
                <div className="ad-admin-list-head">
                  <strong>
                    {item} {index + 1}
                  </strong>
                  <button
                    type="button"
                    className="shell-button shell-button-outline"
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                    aria-label={`Move ${item.toLowerCase()} ${index + 1} up`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="shell-button shell-button-outline"
                    disabled={index === rows.length - 1}
                    onClick={() => move(index, index + 1)}
                    aria-label={`Move ${item.toLowerCase()} ${index + 1} down`}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="shell-button shell-button-outline"
                    onClick={() => remove(row.name)}
                  >
                    Remove {item.toLowerCase()} {index + 1}
                  </button>
                </div>
                {fields.map(([field, label, multiline, required]) => (
                  <Form.Item
                    key={field}
                    name={[row.name, field]}
                    label={label}
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
              {add}
            </button>
          </>
        )}
      </Form.List>
    </fieldset>
  );
}

/** Create or edit a news item. */
export function NewsForm({
  item,
  open,
  onClose,
  onSaved,
}: {
  item: {
    id: number;
    slug: string;
    title: string;
    summary: string;
    body: string;
    airdropSlug: string | null;
    publishedAt: number;
    published: boolean;
  } | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const hydrated = useHydrated();
  const [error, setError] = useState("");
  useEffect(() => {
    if (!open) return;
    setError("");
    form.resetFields();
    form.setFieldsValue(
      item
        ? {
            slug: item.slug,
            title: item.title,
            summary: item.summary,
            body: item.body,
            published: item.published,
            airdropSlug: item.airdropSlug ?? "",
            publishedAt: toInputTime(item.publishedAt),
          }
        : { published: false, publishedAt: toInputTime(Date.now()) },
    );
  }, [open, item, form]);
  const handleSave = async () => {
    const v = await form.validateFields();
    const body = {
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
  return (
    <Modal
      open={open}
      title={item?.slug ?? "New news item"}
      onCancel={onClose}
      onOk={handleSave}
      forceRender={hydrated}
    >
      {error ? (
        <p role="alert" className="ad-error">
          {error}
        </p>
      ) : null}
      <Form form={form} layout="vertical">
        <Form.Item name="slug" label="Slug" rules={[{ required: true }]}>
          <Input />
        </Form.Item>
        <Form.Item name="title" label="Title" rules={[{ required: true }]}>
          <Input />
        </Form.Item>
        <Form.Item name="airdropSlug" label="Airdrop slug (optional)">
          <Input />
        </Form.Item>
        <Form.Item name="summary" label="Summary">
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item name="body" label="Body (HTML)">
          <Input.TextArea rows={4} />
        </Form.Item>
        <Form.Item name="publishedAt" label="Published at (UTC)">
          <Input type="datetime-local" />
        </Form.Item>
        <Form.Item name="published" label="Published" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
