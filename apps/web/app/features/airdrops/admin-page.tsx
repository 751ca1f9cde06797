import type { AdminAirdropNewsRow, AdminAirdropRow } from "@meridian/contracts";
import { Button, Switch, type TableColumnType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { useEditorDialog } from "../../ui/admin-editor.tsx";
import { AdminError, AdminSection, AdminTable } from "../../ui/admin-sections.tsx";
import { languageCoverageColumn } from "../../ui/content-languages.tsx";
import { formatDate } from "../../ui/money.ts";
import { adminCall, adminPaths } from "./admin-api.ts";
import { AirdropForm, NewsForm } from "./admin-forms.tsx";
import { StatusTag } from "./parts.tsx";

export interface AdminData {
  airdrops: AdminAirdropRow[];
  news: AdminAirdropNewsRow[];
}

const CLASSES = { section: "ad-section", head: "ad-admin-head" };

/** `/admin/airdrops`: tables of airdrops and news with publish switches and edit forms. */
export function AirdropAdminPage({ locale, data }: { locale: string; data: AdminData }) {
  const { t } = useTranslation(["airdropsAdmin", "airdrops"]);
  const revalidator = useRevalidator();
  const [error, setError] = useState("");
  const refresh = () => void revalidator.revalidate();
  const airdrops = useEditorDialog<string>(refresh);
  const news = useEditorDialog<AdminAirdropNewsRow>(refresh);
  const toggle = async (path: string, published: boolean) => {
    try {
      await adminCall(path, "POST", { published });
      refresh();
    } catch (e) {
      setError(t("failed", { msg: (e as Error).message }));
    }
  };

  /** The languages, publish switch and edit button columns, alike in both tables. */
  function editColumns<Row extends AdminAirdropRow | AdminAirdropNewsRow>(
    name: (row: Row) => string,
    publishPath: (id: number) => string,
    edit: (row: Row) => void,
  ): TableColumnType<Row>[] {
    return [
      languageCoverageColumn(t("contentLanguages"), (list) => t("missingLanguages", { list })),
      {
        title: t("published"),
        dataIndex: "published",
        render: (v: boolean, row) => (
          <Switch
            checked={v}
            aria-label={t("publishedLabel", { name: name(row) })}
            onChange={(next) => void toggle(publishPath(row.id), next)}
          />
        ),
      },
      {
        title: t("airdrops:columns.action"),
        key: "edit",
        render: (_v, row) => <Button onClick={() => edit(row)}>{t("edit")}</Button>,
      },
    ];
  }

  return (
    <div className="ad-page ad-admin">
      <h1>{t("title")}</h1>
      <AdminError message={error} className="ad-error" />
      <AdminSection
        id="ad-admin-airdrops"
        title={t("airdrops")}
        classes={CLASSES}
        create={{ label: t("new"), onClick: () => airdrops.edit(null) }}
      >
        <AdminTable<AdminAirdropRow>
          rowKey="id"
          dataSource={data.airdrops}
          pagination={{ pageSize: 20 }}
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
            ...editColumns<AdminAirdropRow>(
              (row) => row.name,
              adminPaths.publish,
              (row) => airdrops.edit(row.slug),
            ),
          ]}
        />
      </AdminSection>
      <AdminSection
        id="ad-admin-news"
        title={t("news")}
        classes={CLASSES}
        create={{ label: t("newNews"), onClick: () => news.edit(null) }}
      >
        <AdminTable<AdminAirdropNewsRow>
          rowKey="id"
          dataSource={data.news}
          pagination={{ pageSize: 20 }}
          columns={[
            { title: t("newsColumns.title"), dataIndex: "title" },
            { title: t("newsColumns.airdrop"), dataIndex: "airdropSlug" },
            {
              title: t("newsColumns.date"),
              dataIndex: "publishedAt",
              render: (v: number) => formatDate(v, locale),
            },
            ...editColumns<AdminAirdropNewsRow>((row) => row.title, adminPaths.newsPublish, news.edit),
          ]}
        />
      </AdminSection>
      <AirdropForm slug={airdrops.editing?.item ?? null} {...airdrops.dialog} />
      <NewsForm item={news.editing?.item ?? null} {...news.dialog} />
    </div>
  );
}
