import { TG_APP_CATEGORIES, type TgSubmission } from "@meridian/contracts";
import { Button, Modal, type TableColumnType, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { useEditorDialog } from "../../../ui/admin-editor.tsx";
import { AdminError, AdminSection, AdminTable } from "../../../ui/admin-sections.tsx";
import { languageCoverageColumn } from "../../../ui/content-languages.tsx";
import {
  type AdminAppRow,
  type AdminArticleRow,
  adminCall,
  adminPaths,
  formatUtc,
  TABLE_PAGINATION,
} from "./admin-api.ts";
import { AppForm } from "./app-form.tsx";
import { ArticleForm } from "./article-form.tsx";
import { ReviewQueue } from "./review-queue.tsx";

const CLASSES = { section: "tga-section", head: "tga-admin-head" };

export interface TgAdminData {
  apps: AdminAppRow[];
  articles: AdminArticleRow[];
  submissions: TgSubmission[];
}

/** `/admin/tg-apps`: the review queue, then apps and articles with create, edit and delete. */
export function TgAppsAdminPage({ data }: { data: TgAdminData }) {
  const { t } = useTranslation("tgAppsAdmin");
  const { t: tApps } = useTranslation("tgApps");
  const revalidator = useRevalidator();
  const [modal, modalHolder] = Modal.useModal();
  const [error, setError] = useState("");
  const refresh = () => {
    setError("");
    void revalidator.revalidate();
  };
  const apps = useEditorDialog<string>(refresh);
  const articles = useEditorDialog<AdminArticleRow>(refresh);
  const pending = data.submissions.filter((s) => s.status === "pending").length;

  const confirmDelete = (name: string, path: string) => {
    void modal.confirm({
      title: t("deleteConfirm", { name }),
      okButtonProps: { danger: true },
      okText: t("delete"),
      onOk: async () => {
        try {
          await adminCall(path, "DELETE");
          refresh();
        } catch (e) {
          setError(t("failed", { msg: (e as Error).message }));
        }
      },
    });
  };

  const categoryName = (id: number) => {
    const key = TG_APP_CATEGORIES.find((c) => c.id === id)?.key;
    return key ? tApps(`categories.${key}`) : String(id);
  };
  const published = (v: boolean) => (
    <Tag color={v ? "green" : "default"}>{v ? t("published") : t("draft")}</Tag>
  );
  /** The edit and delete buttons' column, alike in both tables (`name`: what the delete confirms). */
  function actionColumn<Row extends AdminAppRow | AdminArticleRow>(
    name: (row: Row) => string,
    deletePath: (slug: string) => string,
    edit: (row: Row) => void,
  ): TableColumnType<Row> {
    return {
      title: t("columns.action"),
      key: "action",
      render: (_v, row) => (
        <div className="tga-admin-actions">
          <Button size="small" onClick={() => edit(row)}>
            {t("edit")}
          </Button>
          <Button size="small" danger onClick={() => confirmDelete(name(row), deletePath(row.slug))}>
            {t("delete")}
          </Button>
        </div>
      ),
    };
  }

  return (
    <div className="tga-page tga-admin">
      {modalHolder}
      <h1>{t("title")}</h1>
      <AdminError message={error} className="tga-admin-error" />

      <AdminSection id="tga-admin-review" title={t("review.title", { count: pending })} classes={CLASSES}>
        <ReviewQueue submissions={data.submissions} onChanged={refresh} onError={setError} />
      </AdminSection>

      <AdminSection
        id="tga-admin-apps"
        title={t("apps.title", { count: data.apps.length })}
        classes={CLASSES}
        create={{ label: t("apps.new"), onClick: () => apps.edit(null) }}
      >
        <AdminTable<AdminAppRow>
          rowKey="slug"
          dataSource={data.apps}
          pagination={TABLE_PAGINATION}
          data-testid="tga-admin-apps"
          columns={[
            { title: t("columns.name"), dataIndex: "name", sorter: (a, b) => a.name.localeCompare(b.name) },
            { title: t("columns.slug"), dataIndex: "slug" },
            { title: t("columns.category"), dataIndex: "category", render: categoryName },
            {
              title: t("columns.ratings"),
              dataIndex: "ratingCount",
              sorter: (a, b) => a.ratingCount - b.ratingCount,
            },
            languageCoverageColumn(t("contentLanguages"), (list) => t("missingLanguages", { list })),
            { title: t("columns.status"), dataIndex: "published", render: published },
            { title: t("columns.updated"), dataIndex: "updatedAt", render: formatUtc },
            actionColumn<AdminAppRow>(
              (row) => row.name,
              adminPaths.app,
              (row) => apps.edit(row.slug),
            ),
          ]}
        />
      </AdminSection>

      <AdminSection
        id="tga-admin-articles"
        title={t("articles.title", { count: data.articles.length })}
        classes={CLASSES}
        create={{ label: t("articles.new"), onClick: () => articles.edit(null) }}
      >
        <AdminTable<AdminArticleRow>
          rowKey="slug"
          dataSource={data.articles}
          pagination={TABLE_PAGINATION}
          columns={[
            { title: t("columns.title"), dataIndex: "title" },
            { title: t("columns.app"), dataIndex: "appSlug" },
            { title: t("columns.status"), dataIndex: "published", render: published },
            { title: t("columns.date"), dataIndex: "publishedAt", render: formatUtc },
            languageCoverageColumn(t("contentLanguages"), (list) => t("missingLanguages", { list })),
            actionColumn<AdminArticleRow>((row) => row.title, adminPaths.article, articles.edit),
          ]}
        />
      </AdminSection>

      {/* Mounted while open only: a portal has no server HTML to hydrate against. */}
      {apps.editing ? <AppForm slug={apps.editing.item} {...apps.dialog} /> : null}
      {articles.editing ? (
        <ArticleForm
          item={articles.editing.item}
          appSlugs={data.apps.map((a) => a.slug)}
          {...articles.dialog}
        />
      ) : null}
    </div>
  );
}
