import { TG_APP_CATEGORIES, TG_APP_PLATFORMS, type TgAppInputRaw } from "@meridian/contracts";
import { Checkbox, Form, Input, Modal, Select, Switch } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { MediaEditor } from "../../media/media-editor.tsx";
import { adminCall, adminPaths } from "./admin-api.ts";

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

interface FormValues {
  slug: string;
  name: string;
  category: number;
  editorsChoice: boolean;
  botUsername: string;
  startParam?: string;
  website?: string;
  iconUrl?: string;
  screenshots?: string[];
  languages?: string[];
  platforms: string[];
  tokenLaunch: boolean;
  shortDescription: string;
  longDescription?: string;
  published: boolean;
}

/**
 * Create (slug null) or edit one app. English text here; stored translations travel
 * through unchanged so an edit never drops them.
 */
export function AppForm({
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
  const { t } = useTranslation("tgAppsAdmin");
  const { t: tApps } = useTranslation("tgApps");
  const [form] = Form.useForm<FormValues>();
  const [translations, setTranslations] = useState<TgAppInputRaw["translations"]>({});
  const [error, setError] = useState("");

  useEffect(() => {
    if (!open) return;
    setError("");
    form.resetFields();
    setTranslations({});
    if (slug === null) {
      form.setFieldsValue({
        category: 5,
        editorsChoice: false,
        platforms: [...TG_APP_PLATFORMS],
        languages: ["en"],
        tokenLaunch: false,
        published: true,
      });
      return;
    }
    void adminCall<TgAppInputRaw>(adminPaths.app(slug), "GET").then(
      (stored) => {
        setTranslations(stored.translations ?? {});
        form.setFieldsValue(stored as FormValues);
      },
      (e: Error) => setError(e.message),
    );
  }, [open, slug, form]);

  const handleSave = async () => {
    const values = await form.validateFields();
    try {
      await adminCall(adminPaths.apps, "POST", { ...values, translations });
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <Modal
      open={open}
      title={slug ?? t("apps.new")}
      onCancel={onClose}
      onOk={handleSave}
      okText={t("save")}
      width={760}
    >
      {error ? (
        <p role="alert" className="tga-admin-error">
          {error}
        </p>
      ) : null}
      <Form form={form} layout="vertical" className="tga-admin-form">
        <Form.Item name="slug" label={t("fields.slug")} rules={[{ required: true }, { pattern: SLUG }]}>
          <Input disabled={slug !== null} />
        </Form.Item>
        <Form.Item name="name" label={t("fields.name")} rules={[{ required: true }, { max: 80 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="category" label={t("fields.category")} rules={[{ required: true }]}>
          <Select
            options={TG_APP_CATEGORIES.map((c) => ({ value: c.id, label: tApps(`categories.${c.key}`) }))}
          />
        </Form.Item>
        <Form.Item name="botUsername" label={t("fields.bot")} rules={[{ required: true }]}>
          <Input placeholder="@example_bot" />
        </Form.Item>
        <Form.Item name="startParam" label={t("fields.startParam")}>
          <Input />
        </Form.Item>
        <Form.Item name="website" label={t("fields.website")}>
          <Input placeholder="https://" />
        </Form.Item>
        <Form.Item name="iconUrl" label={t("fields.iconUrl")}>
          <Input placeholder="https://" />
        </Form.Item>
        <Form.Item name="screenshots" label={t("fields.screenshots")}>
          <Select mode="tags" tokenSeparators={[" ", ","]} open={false} />
        </Form.Item>
        <Form.Item name="languages" label={t("fields.languages")}>
          <Select mode="tags" tokenSeparators={[" ", ","]} open={false} />
        </Form.Item>
        <Form.Item
          name="platforms"
          label={t("fields.platforms")}
          rules={[{ required: true, type: "array", min: 1 }]}
        >
          <Checkbox.Group options={TG_APP_PLATFORMS.map((p) => ({ value: p, label: p }))} />
        </Form.Item>
        <Form.Item
          name="shortDescription"
          label={t("fields.shortDescription")}
          rules={[{ required: true }, { max: 300 }]}
        >
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item name="longDescription" label={t("fields.longDescription")}>
          <Input.TextArea rows={5} />
        </Form.Item>
        <div className="tga-admin-switches">
          <Form.Item name="editorsChoice" label={t("fields.editorsChoice")} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="tokenLaunch" label={t("fields.tokenLaunch")} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="published" label={t("fields.published")} valuePropName="checked">
            <Switch />
          </Form.Item>
        </div>
      </Form>
      {slug !== null ? <MediaEditor owner="app" slug={slug} /> : null}
    </Modal>
  );
}
