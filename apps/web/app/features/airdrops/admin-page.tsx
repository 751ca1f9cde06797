import type { AdminAirdropNewsRow, AdminAirdropRow } from "@meridian/contracts";
import { Button, Switch, Table } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { adminCall, adminPaths } from "./admin-api.ts";
import { AirdropForm, NewsForm } from "./admin-forms.tsx";
import { formatDate } from "./money.ts";
import { StatusTag } from "./parts.tsx";

export interface AdminData {
  airdrops: AdminAirdropRow[];
  news: AdminAirdropNewsRow[];
}

/** `/admin/airdrops`: tables of airdrops and news with publish switches and edit forms. */
export function AirdropAdminPage({ locale, data }: { locale: string; data: AdminData }) {
  const { t } = useTranslation("airdrops");
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<{ slug: string | null } | null>(null);
  const [editingNews, setEditingNews] = useState<{ item: AdminAirdropNewsRow | null } | null>(null);
  const [error, setError] = useState("");
  const refresh = () => void revalidator.revalidate();
  const toggle = async (path: string, published: boolean) => {
    try {
      await adminCall(path, "POST", { published });
      refresh();
    } catch (e) {
      setError(t("admin.failed", { msg: (e as Error).message }));
    }
  };

  return (
    <div className="ad-page ad-admin">
      <h1>{t("admin.title")}</h1>
      {error ? (
        <p role="alert" className="ad-error">
          {error}
        </p>
      ) : null}
      <section className="ad-section" aria-labelledby="ad-admin-airdrops">
        <div className="ad-admin-head">
          <h2 id="ad-admin-airdrops">{t("admin.airdrops")}</h2>
          <Button type="primary" onClick={() => setEditing({ slug: null })}>
            {t("admin.new")}
          </Button>
        </div>
        <Table<AdminAirdropRow>
          rowKey="id"
          size="small"
          dataSource={data.airdrops}
          pagination={{ pageSize: 20 }}
          scroll={{ x: true }}
          columns={[
            { title: t("columns.name"), dataIndex: "name" },
            { title: t("columns.ticker"), dataIndex: "ticker" },
            { title: t("columns.chain"), dataIndex: "chain" },
            { title: t("columns.status"), dataIndex: "status", render: (s) => <StatusTag status={s} /> },
            { title: t("columns.endAt"), dataIndex: "endAt", render: (v: number) => formatDate(v, locale) },
            {
              title: t("admin.published"),
              dataIndex: "published",
              render: (v: boolean, row) => (
                <Switch
                  checked={v}
                  aria-label={`${t("admin.published")}: ${row.name}`}
                  onChange={(next) => void toggle(adminPaths.publish(row.id), next)}
                />
              ),
            },
            {
              title: t("columns.action"),
              key: "edit",
              render: (_v, row) => (
                <Button onClick={() => setEditing({ slug: row.slug })}>{t("admin.edit")}</Button>
              ),
            },
          ]}
        />
      </section>
      <section className="ad-section" aria-labelledby="ad-admin-news">
        <div className="ad-admin-head">
          <h2 id="ad-admin-news">{t("admin.news")}</h2>
          <Button type="primary" onClick={() => setEditingNews({ item: null })}>
            {t("admin.newNews")}
          </Button>
        </div>
        <Table<AdminAirdropNewsRow>
          rowKey="id"
          size="small"
          dataSource={data.news}
          pagination={{ pageSize: 20 }}
          columns={[
            { title: "Title", dataIndex: "title" },
            { title: "Airdrop", dataIndex: "airdropSlug" },
            { title: "Date", dataIndex: "publishedAt", render: (v: number) => formatDate(v, locale) },
            {
              title: t("admin.published"),
              dataIndex: "published",
              render: (v: boolean, row) => (
                <Switch
                  checked={v}
                  aria-label={`${t("admin.published")}: ${row.title}`}
                  onChange={(next) => void toggle(adminPaths.newsPublish(row.id), next)}
                />
              ),
            },
            {
              title: t("columns.action"),
              key: "edit",
              render: (_v, row) => (
                <Button onClick={() => setEditingNews({ item: row })}>{t("admin.edit")}</Button>
              ),
            },
          ]}
        />
      </section>
      <AirdropForm
        slug={editing?.slug ?? null}
        open={editing !== null}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          refresh();
        }}
      />
      <NewsForm
        item={editingNews?.item ?? null}
        open={editingNews !== null}
        onClose={() => setEditingNews(null)}
        onSaved={() => {
          setEditingNews(null);
          refresh();
        }}
      />
    </div>
  );
}
