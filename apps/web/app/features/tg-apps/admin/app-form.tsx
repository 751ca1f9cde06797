import { TG_APP_CATEGORIES, TG_APP_PLATFORMS, type TgAppInputRaw } from "@meridian/contracts";
import { Checkbox, Form, Input, Select, Switch } from "antd";
import { useTranslation } from "react-i18next";
import { AdminEditorModal, type EditorDialogProps } from "../../../ui/admin-editor.tsx";
import { useContentEditor } from "../../../ui/content-editor.tsx";
import { MediaEditor } from "../../../ui/media-editor.tsx";
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

/** Texts an app holds per language (docs/content.md); `longDescription` makes it written. */
const APP_TEXT_FIELDS = ["shortDescription", "longDescription"] as const;

/**
 * Create (slug null) or edit one app. English edits the whole app; another language
 * (a `*` marks the ones not written yet) edits only its descriptions, saved as that
 * language's translation. Stored translations of the other languages travel through
 * unchanged (the server replaces an app's texts as a whole), so an edit never drops them.
 */
export function AppForm({ slug, ...dialog }: { slug: string | null } & EditorDialogProps) {
  const { t } = useTranslation("tgAppsAdmin");
  const { t: tApps } = useTranslation("tgApps");
  const [form] = Form.useForm<FormValues>();
  const editor = useContentEditor<TgAppInputRaw, FormValues>({
    open: dialog.open,
    form,
    loadKey: slug,
    load: slug === null ? null : () => adminCall<TgAppInputRaw>(adminPaths.app(slug), "GET"),
    initial: () => ({
      category: 5,
      editorsChoice: false,
      platforms: [...TG_APP_PLATFORMS],
      languages: ["en"],
      tokenLaunch: false,
      published: true,
    }),
    show: (stored, code) => {
      const own = code === "en" ? stored : (stored.translations?.[code] ?? {});
      return {
        ...(stored as FormValues),
        shortDescription: own.shortDescription ?? "",
        longDescription: own.longDescription ?? "",
      };
    },
  });
  const { stored, language } = editor;

  const handleSave = async () => {
    const values = await form.validateFields();
    const translations = { ...(stored?.translations ?? {}) };
    let body: Record<string, unknown> = { ...values, translations };
    if (language !== "en" && stored !== null) {
      // A translation: the stored English app plus this language's texts only.
      translations[language] = Object.fromEntries(APP_TEXT_FIELDS.map((key) => [key, values[key] ?? ""]));
      body = { ...stored, translations };
    }
    await editor.save(() => adminCall(adminPaths.apps, "POST", body), dialog.onSaved);
  };

  return (
    <AdminEditorModal
      editor={editor}
      dialog={dialog}
      title={slug ?? t("apps.new")}
      onOk={handleSave}
      okText={t("save")}
      width={760}
      errorClassName="tga-admin-error"
      languages={{ label: t("contentLanguages"), testId: "app-edit-language", writtenBy: "longDescription" }}
    >
      {/* Another language edits its texts only: the app's facts are shown, not editable. */}
      <Form form={form} layout="vertical" className="tga-admin-form" disabled={language !== "en"}>
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
          rules={language === "en" ? [{ required: true }, { max: 300 }] : [{ max: 300 }]}
        >
          <Input.TextArea rows={2} disabled={false} />
        </Form.Item>
        <Form.Item name="longDescription" label={t("fields.longDescription")}>
          <Input.TextArea rows={5} disabled={false} />
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
    </AdminEditorModal>
  );
}
