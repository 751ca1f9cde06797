import type { AdminAirdropNewsRow, AdminAirdropRow } from "@meridian/contracts";
import { Button, Switch, Table } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { languageCoverageColumn } from "../../ui/content-languages.tsx";
import { formatDate } from "../../ui/money.ts";
import { adminCall, adminPaths } from "./admin-api.ts";
import { AirdropForm, NewsForm } from "./admin-forms.tsx";
import { StatusTag } from "./parts.tsx";

export interface AdminData {
  airdrops: AdminAirdropRow[];
  news: AdminAirdropNewsRow[];
}

/** `/admin/airdrops`: tables of airdrops and news with publish switches and edit forms. */
export function AirdropAdminPage({ locale, data }: { locale: string; data: AdminData }) {
  const { t } = useTranslation(["airdropsAdmin", "airdrops"]);
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
      setError(t("failed", { msg: (e as Error).message }));
    }
  };

  return (
    <div className="ad-page ad-admin">
      <h1>{t("title")}</h1>
      {error ? (
        <p role="alert" className="ad-error">
          {error}
        </p>
      ) : null}
      <section className="ad-section" aria-labelledby="ad-admin-airdrops">
        <div className="ad-admin-head">
          <h2 id="ad-admin-airdrops">{t("airdrops")}</h2>
          <Button type="primary" onClick={() => setEditing({ slug: null })}>
            {t("new")}
          </Button>
        </div>
        <Table<AdminAirdropRow>
          rowKey="id"
          size="small"
          dataSource={data.airdrops}
          pagination={{ pageSize: 20 }}
          scroll={{ x: true }}
          columns={[
            { title: t("airdrops:columns.name"), dataIndex: "name" },
            { title: t("airdrops:columns.ticker"), dataIndex: "ticker" },
            { title: t("airdrops:columns.chain"), dataIndex: "chain" },
            {
              title: t("airdrops:columns.status"),
              dataIndex: "status",
              render: (s) => <StatusTag status={s} />,
            },
            {
              title: t("airdrops:columns.endAt"),
              dataIndex: "endAt",
              render: (v: number) => formatDate(v, locale),
            },
            languageCoverageColumn(t("contentLanguages"), (list) => t("missingLanguages", { list })),
            {
              title: t("published"),
              dataIndex: "published",
              render: (v: boolean, row) => (
                <Switch
                  checked={v}
                  aria-label={t("publishedLabel", { name: row.name })}
                  onChange={(next) => void toggle(adminPaths.publish(row.id), next)}
                />
              ),
            },
            {
              title: t("airdrops:columns.action"),
              key: "edit",
              render: (_v, row) => (
                <Button onClick={() => setEditing({ slug: row.slug })}>{t("edit")}</Button>
              ),
            },
          ]}
        />
      </section>
      <section className="ad-section" aria-labelledby="ad-admin-news">
        <div className="ad-admin-head">
          <h2 id="ad-admin-news">{t("news")}</h2>
          <Button type="primary" onClick={() => setEditingNews({ item: null })}>
            {t("newNews")}
          </Button>
        </div>
        <Table<AdminAirdropNewsRow>
          rowKey="id"
          size="small"
          dataSource={data.news}
          pagination={{ pageSize: 20 }}
          scroll={{ x: true }}
          columns={[
            { title: t("newsColumns.title"), dataIndex: "title" },
            { title: t("newsColumns.airdrop"), dataIndex: "airdropSlug" },
            {
              title: t("newsColumns.date"),
              dataIndex: "publishedAt",
              render: (v: number) => formatDate(v, locale),
            },
            languageCoverageColumn(t("contentLanguages"), (list) => t("missingLanguages", { list })),
            {
              title: t("published"),
              dataIndex: "published",
              render: (v: boolean, row) => (
                <Switch
                  checked={v}
                  aria-label={t("publishedLabel", { name: row.title })}
                  onChange={(next) => void toggle(adminPaths.newsPublish(row.id), next)}
                />
              ),
            },
            {
              title: t("airdrops:columns.action"),
              key: "edit",
              render: (_v, row) => <Button onClick={() => setEditingNews({ item: row })}>{t("edit")}</Button>,
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
