import { TG_APP_CATEGORIES, type TgSubmission } from "@meridian/contracts";
import { Button, Modal, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
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
  const [editingApp, setEditingApp] = useState<{ slug: string | null } | null>(null);
  const [editingArticle, setEditingArticle] = useState<{ item: AdminArticleRow | null } | null>(null);
  const [error, setError] = useState("");
  const refresh = () => {
    setError("");
    void revalidator.revalidate();
  };
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

  return (
    <div className="tga-page tga-admin">
      {modalHolder}
      <h1>{t("title")}</h1>
      {error ? (
        <p role="alert" className="tga-admin-error">
          {error}
        </p>
      ) : null}

      <section className="tga-section" aria-labelledby="tga-admin-review">
        <div className="tga-admin-head">
          <h2 id="tga-admin-review">{t("review.title", { count: pending })}</h2>
        </div>
        <ReviewQueue submissions={data.submissions} onChanged={refresh} onError={setError} />
      </section>

      <section className="tga-section" aria-labelledby="tga-admin-apps">
        <div className="tga-admin-head">
          <h2 id="tga-admin-apps">{t("apps.title", { count: data.apps.length })}</h2>
          <Button type="primary" onClick={() => setEditingApp({ slug: null })}>
            {t("apps.new")}
          </Button>
        </div>
        <Table<AdminAppRow>
          rowKey="slug"
          size="small"
          dataSource={data.apps}
          pagination={TABLE_PAGINATION}
          scroll={{ x: true }}
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
            {
              title: t("columns.action"),
              key: "action",
              render: (_v, row) => (
                <div className="tga-admin-actions">
                  <Button size="small" onClick={() => setEditingApp({ slug: row.slug })}>
                    {t("edit")}
                  </Button>
                  <Button
                    size="small"
                    danger
                    onClick={() => confirmDelete(row.name, adminPaths.app(row.slug))}
                  >
                    {t("delete")}
                  </Button>
                </div>
              ),
            },
          ]}
        />
      </section>

      <section className="tga-section" aria-labelledby="tga-admin-articles">
        <div className="tga-admin-head">
          <h2 id="tga-admin-articles">{t("articles.title", { count: data.articles.length })}</h2>
          <Button type="primary" onClick={() => setEditingArticle({ item: null })}>
            {t("articles.new")}
          </Button>
        </div>
        <Table<AdminArticleRow>
          rowKey="slug"
          size="small"
          dataSource={data.articles}
          pagination={TABLE_PAGINATION}
          scroll={{ x: true }}
          columns={[
            { title: t("columns.title"), dataIndex: "title" },
            { title: t("columns.app"), dataIndex: "appSlug" },
            { title: t("columns.status"), dataIndex: "published", render: published },
            { title: t("columns.date"), dataIndex: "publishedAt", render: formatUtc },
            languageCoverageColumn(t("contentLanguages"), (list) => t("missingLanguages", { list })),
            {
              title: t("columns.action"),
              key: "action",
              render: (_v, row) => (
                <div className="tga-admin-actions">
                  <Button size="small" onClick={() => setEditingArticle({ item: row })}>
                    {t("edit")}
                  </Button>
                  <Button
                    size="small"
                    danger
                    onClick={() => confirmDelete(row.title, adminPaths.article(row.slug))}
                  >
                    {t("delete")}
                  </Button>
                </div>
              ),
            },
          ]}
        />
      </section>

      {/* Mounted while open only: a portal has no server HTML to hydrate against. */}
      {editingApp ? (
        <AppForm
          slug={editingApp.slug}
          open
          onClose={() => setEditingApp(null)}
          onSaved={() => {
            setEditingApp(null);
            refresh();
          }}
        />
      ) : null}
      {editingArticle ? (
        <ArticleForm
          item={editingArticle.item}
          open
          appSlugs={data.apps.map((a) => a.slug)}
          onClose={() => setEditingArticle(null)}
          onSaved={() => {
            setEditingArticle(null);
            refresh();
          }}
        />
      ) : null}
    </div>
  );
}
