import { TG_APP_CATEGORIES, type TgSubmission } from "@meridian/contracts";
import { Button, Input, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AdminTable } from "../../../ui/admin-sections.tsx";
import { adminCall, adminPaths, formatUtc, TABLE_PAGINATION } from "./admin-api.ts";

const STATUS_COLOR = { pending: "gold", approved: "green", rejected: "red" } as const;

/**
 * Listing requests, pending first: approve (creates and publishes the app, under the
 * slug typed here or one derived from the name) or reject.
 */
export function ReviewQueue({
  submissions,
  onChanged,
  onError,
}: {
  submissions: TgSubmission[];
  onChanged: () => void;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation("tgAppsAdmin");
  const { t: tApps } = useTranslation("tgApps");
  const [slugs, setSlugs] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState<number | null>(null);
  const rows = [...submissions].sort(
    (a, b) => Number(b.status === "pending") - Number(a.status === "pending") || b.createdAt - a.createdAt,
  );

  const review = async (id: number, decision: "approve" | "reject") => {
    setBusy(id);
    try {
      const slug = slugs[id]?.trim();
      await adminCall(adminPaths.submission(id), "POST", { decision, ...(slug ? { slug } : {}) });
      onChanged();
    } catch (e) {
      onError(t("failed", { msg: (e as Error).message }));
    } finally {
      setBusy(null);
    }
  };

  const categoryName = (id: number) => {
    const key = TG_APP_CATEGORIES.find((c) => c.id === id)?.key;
    return key ? tApps(`categories.${key}`) : String(id);
  };

  return (
    <AdminTable<TgSubmission>
      rowKey="id"
      dataSource={rows}
      pagination={TABLE_PAGINATION}
      data-testid="tga-admin-submissions"
      columns={[
        { title: t("columns.name"), dataIndex: "name" },
        {
          title: t("columns.bot"),
          dataIndex: "botUsername",
          render: (v: string) => `@${v.replace(/^@/, "")}`,
        },
        { title: t("columns.category"), dataIndex: "category", render: categoryName },
        { title: t("columns.email"), dataIndex: "email" },
        {
          title: t("columns.description"),
          dataIndex: "description",
          render: (v: string) => <span className="tga-admin-clip">{v}</span>,
        },
        { title: t("columns.received"), dataIndex: "createdAt", render: formatUtc },
        {
          title: t("columns.status"),
          dataIndex: "status",
          render: (s: TgSubmission["status"], row) => (
            <>
              <Tag color={STATUS_COLOR[s]}>{t(`status.${s}`)}</Tag>
              {row.appSlug ? <code>{row.appSlug}</code> : null}
            </>
          ),
        },
        {
          title: t("columns.action"),
          key: "action",
          render: (_v, row) =>
            row.status === "pending" ? (
              <div className="tga-admin-actions">
                <Input
                  size="small"
                  placeholder={t("review.slugPlaceholder")}
                  aria-label={t("review.slugLabel", { name: row.name })}
                  value={slugs[row.id] ?? ""}
                  onChange={(e) => setSlugs((s) => ({ ...s, [row.id]: e.target.value }))}
                />
                <Button
                  type="primary"
                  size="small"
                  loading={busy === row.id}
                  aria-label={t("review.approveLabel", { name: row.name })}
                  onClick={() => void review(row.id, "approve")}
                >
                  {t("review.approve")}
                </Button>
                <Button
                  danger
                  size="small"
                  disabled={busy === row.id}
                  aria-label={t("review.rejectLabel", { name: row.name })}
                  onClick={() => void review(row.id, "reject")}
                >
                  {t("review.reject")}
                </Button>
              </div>
            ) : null,
        },
      ]}
    />
  );
}
