import type { LoginHistoryAnswer, LoginHistoryItem } from "@meridian/contracts";
import { LOGIN_HISTORY_DAYS } from "@meridian/contracts";
import { Table, Tag } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { LoadError } from "../../shell/load-error.tsx";
import { formatWhen, SecurityPage } from "./security-shell.tsx";

const PAGE_SIZE = 20;

/** `/subaccount/setting/history`: every login attempt of the last 90 days, newest first, paged on the server. */
export function LoginHistoryPage({ locale }: { locale: string }) {
  return (
    <SecurityPage locale={locale} page="history" maxWidth={960}>
      {() => <HistoryTable locale={locale} />}
    </SecurityPage>
  );
}

function HistoryTable({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<LoginHistoryAnswer | undefined>();
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry: it reads again.
  useEffect(() => {
    let live = true;
    setError(null);
    accountClient()
      .api.get<LoginHistoryAnswer>(
        "v1/user/security/loginHistory",
        { page, pageSize: PAGE_SIZE },
        { silent: true },
      )
      .then((a) => live && setAnswer(a))
      .catch((err: unknown) => live && setError(err));
    return () => {
      live = false;
    };
  }, [page, attempt]);
  return (
    <>
      <p>{t("history.intro", { days: LOGIN_HISTORY_DAYS })}</p>
      <LoadError error={error} onRetry={() => setAttempt((n) => n + 1)} />
      <Table<LoginHistoryItem>
        data-testid="history-table"
        size="small"
        loading={answer === undefined && error === null}
        rowKey={(r) => `${r.at}-${r.ip}-${r.success}`}
        dataSource={answer?.items ?? []}
        scroll={{ x: 560 }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: answer?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          { title: t("history.time"), dataIndex: "at", render: (at: number) => formatWhen(at, locale) },
          {
            title: t("history.result"),
            dataIndex: "success",
            render: (_: boolean, r) =>
              r.success ? (
                <>
                  <Tag color="green">{t("history.success")}</Tag>
                  {r.newDevice && (
                    <Tag color="gold" data-testid="history-new-device">
                      {t("history.newDevice")}
                    </Tag>
                  )}
                  {r.verifiedBy !== null && (
                    <Tag data-testid="history-verified-by">{t(`history.proofs.${r.verifiedBy}`)}</Tag>
                  )}
                </>
              ) : (
                <Tag color="red">{t(`history.reasons.${r.reason ?? "password"}`)}</Tag>
              ),
          },
          { title: t("history.ip"), dataIndex: "ip", render: (ip: string) => <bdi>{ip || "—"}</bdi> },
          {
            title: t("history.device"),
            key: "device",
            render: (_: unknown, r) => [r.browser, r.os].filter(Boolean).join(" · ") || t("devices.unknown"),
          },
        ]}
      />
    </>
  );
}
