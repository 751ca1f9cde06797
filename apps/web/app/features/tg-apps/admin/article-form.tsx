import type { TgArticleInputRaw } from "@meridian/contracts";
import { Form, Input, Modal, Select, Switch } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
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

/** Create or edit an article; stored translations travel through unchanged. */
export function ArticleForm({
  item,
  open,
  appSlugs,
  onClose,
  onSaved,
}: {
  item: AdminArticleRow | null;
  open: boolean;
  appSlugs: string[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation("tgAppsAdmin");
  const [form] = Form.useForm<FormValues>();
  const [translations, setTranslations] = useState<TgArticleInputRaw["translations"]>({});
  const [error, setError] = useState("");

  useEffect(() => {
    if (!open) return;
    setError("");
    form.resetFields();
    setTranslations({});
    if (item === null) {
      form.setFieldsValue({ published: true, publishedAt: toInputTime(Date.now()) });
      return;
    }
    void adminCall<TgArticleInputRaw>(adminPaths.article(item.slug), "GET").then(
      (stored) => {
        setTranslations(stored.translations ?? {});
        form.setFieldsValue({
          slug: stored.slug,
          appSlug: stored.appSlug,
          title: stored.title,
          summary: stored.summary ?? "",
          body: stored.body ?? "",
          published: stored.published ?? true,
          publishedAt: toInputTime(stored.publishedAt),
        });
      },
      (e: Error) => setError(e.message),
    );
  }, [open, item, form]);

  const handleSave = async () => {
    const v = await form.validateFields();
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
    try {
      await adminCall(adminPaths.articles, "POST", body);
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <Modal
      open={open}
      title={item?.slug ?? t("articles.new")}
      onCancel={onClose}
      onOk={handleSave}
      okText={t("save")}
      width={720}
    >
      {error ? (
        <p role="alert" className="tga-admin-error">
          {error}
        </p>
      ) : null}
      <Form form={form} layout="vertical" className="tga-admin-form">
        <Form.Item name="slug" label={t("fields.slug")} rules={[{ required: true }, { pattern: SLUG }]}>
          <Input disabled={item !== null} />
        </Form.Item>
        <Form.Item name="appSlug" label={t("fields.app")} rules={[{ required: true }]}>
          <Select showSearch options={appSlugs.map((s) => ({ value: s, label: s }))} />
        </Form.Item>
        <Form.Item name="title" label={t("fields.title")} rules={[{ required: true }, { max: 200 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="summary" label={t("fields.summary")} rules={[{ max: 1000 }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item name="body" label={t("fields.body")}>
          <Input.TextArea rows={6} />
        </Form.Item>
        <Form.Item name="publishedAt" label={t("fields.publishedAt")}>
          <Input type="datetime-local" />
        </Form.Item>
        <Form.Item name="published" label={t("fields.published")} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
