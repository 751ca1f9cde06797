import { ADMIN_CONTENT_API, type PageMetaRow } from "@meridian/contracts";
import { Button, Form, Input, Modal, Select, Table } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { adminCall, fieldIssues } from "../../api/api-call.ts";
import { AdminNav, formatUtc } from "./admin-nav.tsx";

export interface PageMetaAdminData {
  rows: PageMetaRow[];
  pageKeys: string[];
  locales: string[];
}

type Draft = Pick<PageMetaRow, "pageKey" | "locale" | "title" | "description" | "keywords">;

/** `/admin/page-meta`: the rows behind page titles and descriptions, per page and language. */
export function PageMetaPage({ locale, data }: { locale: string; data: PageMetaAdminData }) {
  const { t } = useTranslation("adminTools");
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<{ row: Draft | null } | null>(null);
  const [pageFilter, setPageFilter] = useState("");
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const rows = pageFilter === "" ? data.rows : data.rows.filter((r) => r.pageKey === pageFilter);

  const remove = (row: PageMetaRow) => {
    Modal.confirm({
      title: t("meta.deleteConfirm", { locale: row.locale, page: row.pageKey }),
      okText: t("meta.delete"),
      cancelText: t("meta.cancel"),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await adminCall(ADMIN_CONTENT_API.pageMeta, "DELETE", { pageKey: row.pageKey, locale: row.locale });
          setNotice({ kind: "ok", text: t("meta.deleted") });
          void revalidator.revalidate();
        } catch (e) {
          setNotice({ kind: "error", text: t("meta.failed", { msg: (e as Error).message }) });
        }
      },
    });
  };

  return (
    <div className="at-page">
      <AdminNav locale={locale} current="pageMeta" />
      <h1>{t("meta.title")}</h1>
      <p className="at-muted">{t("meta.intro")}</p>
      {notice ? (
        <p
          role={notice.kind === "error" ? "alert" : "status"}
          className={notice.kind === "error" ? "at-error" : "at-ok"}
        >
          {notice.text}
        </p>
      ) : null}
      <div className="at-toolbar">
        <label>
          <span>{t("meta.filterPage")}</span>
          <select value={pageFilter} onChange={(e) => setPageFilter(e.target.value)}>
            <option value="">{t("meta.allPages")}</option>
            {data.pageKeys.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <Button type="primary" onClick={() => setEditing({ row: null })}>
          {t("meta.add")}
        </Button>
      </div>
      <Table<PageMetaRow>
        rowKey={(r) => `${r.pageKey}/${r.locale}`}
        size="small"
        dataSource={rows}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        scroll={{ x: 900 }}
        columns={[
          { title: t("meta.pageKey"), dataIndex: "pageKey", render: (v: string) => <code>{v}</code> },
          { title: t("meta.locale"), dataIndex: "locale", width: 90 },
          { title: t("meta.metaTitle"), dataIndex: "title" },
          {
            title: t("meta.description"),
            dataIndex: "description",
            render: (v: string) => <span className="at-clip">{v}</span>,
          },
          {
            title: t("meta.keywords"),
            dataIndex: "keywords",
            render: (v: string) => <span className="at-clip">{v}</span>,
          },
          {
            title: t("meta.updated"),
            dataIndex: "updatedAt",
            width: 180,
            render: (v: number) => formatUtc(v, locale),
          },
          {
            title: t("meta.actions"),
            key: "actions",
            render: (_v, row) => (
              <span className="at-actions">
                <Button
                  size="small"
                  onClick={() => setEditing({ row })}
                  aria-label={`${t("meta.edit")}: ${row.pageKey} ${row.locale}`}
                >
                  {t("meta.edit")}
                </Button>
                <Button
                  size="small"
                  danger
                  onClick={() => remove(row)}
                  aria-label={`${t("meta.delete")}: ${row.pageKey} ${row.locale}`}
                >
                  {t("meta.delete")}
                </Button>
              </span>
            ),
          },
        ]}
      />
      {editing === null ? null : (
        <PageMetaForm
          key={editing.row ? `${editing.row.pageKey}/${editing.row.locale}` : "new"}
          row={editing.row}
          data={data}
          defaultPage={pageFilter}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setNotice({ kind: "ok", text: t("meta.saved") });
            void revalidator.revalidate();
          }}
        />
      )}
    </div>
  );
}

/**
 * Mounted only while open, so no portal is server-rendered and hydrated: the form starts
 * from the row, or from an empty row for the page the filter shows.
 */
function PageMetaForm({
  row,
  data,
  defaultPage,
  onClose,
  onSaved,
}: {
  row: Draft | null;
  data: PageMetaAdminData;
  defaultPage: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation("adminTools");
  const [form] = Form.useForm<Draft>();
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);
  const [initial] = useState<Draft>(
    () =>
      row ?? {
        pageKey: defaultPage || data.pageKeys[0] || "",
        locale: "en",
        title: "",
        description: "",
        keywords: "",
      },
  );

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await adminCall(ADMIN_CONTENT_API.pageMeta, "PUT", values);
      onSaved();
    } catch (e) {
      const issues = fieldIssues(e);
      const known = issues.filter((i) =>
        ["pageKey", "locale", "title", "description", "keywords"].includes(i.field),
      );
      if (known.length > 0)
        form.setFields(known.map((i) => ({ name: i.field as keyof Draft, errors: [i.message] })));
      setError(t("meta.failed", { msg: (e as Error).message }));
    } finally {
      setSaving(false);
    }
  };

  const required = [{ required: true, whitespace: true, message: t("meta.required") }];
  return (
    <Modal
      open
      title={row ? t("meta.editTitle", { page: row.pageKey, locale: row.locale }) : t("meta.newTitle")}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t("meta.save")}
      cancelText={t("meta.cancel")}
      confirmLoading={saving}
      width={640}
    >
      {error ? (
        <p role="alert" className="at-error">
          {error}
        </p>
      ) : null}
      <Form form={form} layout="vertical" className="at-form" initialValues={initial}>
        <Form.Item name="pageKey" label={t("meta.pageKey")} rules={required}>
          <Input list="at-page-keys" disabled={row !== null} maxLength={80} />
        </Form.Item>
        <datalist id="at-page-keys">
          {data.pageKeys.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        <Form.Item name="locale" label={t("meta.locale")} rules={required}>
          <Select disabled={row !== null} options={data.locales.map((l) => ({ value: l, label: l }))} />
        </Form.Item>
        <Form.Item name="title" label={t("meta.metaTitle")} rules={required}>
          <Input maxLength={120} showCount />
        </Form.Item>
        <Form.Item name="description" label={t("meta.description")} rules={required}>
          <Input.TextArea rows={3} maxLength={320} showCount />
        </Form.Item>
        <Form.Item name="keywords" label={t("meta.keywords")}>
          <Input.TextArea rows={2} maxLength={400} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
