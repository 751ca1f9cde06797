import type { ApiKeySummary } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Button, Table, Tag } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { LoadError } from "../../shell/load-error.tsx";
import { formatWhen, SecurityPage } from "./security-shell.tsx";

/** `/subaccount/setting/api`: the API keys of the account and its sub-accounts; managed at /account/newapi. */
export function ApiKeysPage({ locale }: { locale: string }) {
  return (
    <SecurityPage locale={locale} page="api" maxWidth={960}>
      {() => <ApiKeyTable locale={locale} />}
    </SecurityPage>
  );
}

function ApiKeyTable({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  const [keys, setKeys] = useState<ApiKeySummary[] | undefined>();
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry: it reads again.
  useEffect(() => {
    setError(null);
    accountClient()
      .api.get<{ keys: ApiKeySummary[] }>("v1/user/security/apiKeys", undefined, { silent: true })
      .then((a) => setKeys(a.keys))
      .catch((err: unknown) => setError(err));
  }, [attempt]);
  const manage = localizePath(locale, "/account/newapi");
  return (
    <>
      <p>{t("apiKeys.intro")}</p>
      <LoadError error={error} onRetry={() => setAttempt((n) => n + 1)} />
      <Table<ApiKeySummary>
        data-testid="api-keys-table"
        size="small"
        loading={keys === undefined && error === null}
        rowKey="apiKey"
        dataSource={keys ?? []}
        scroll={{ x: 640 }}
        pagination={false}
        locale={{ emptyText: t("apiKeys.none") }}
        columns={[
          { title: t("apiKeys.label"), dataIndex: "label" },
          { title: t("apiKeys.key"), dataIndex: "apiKey", render: (k: string) => <code>{k}</code> },
          {
            title: t("apiKeys.account"),
            dataIndex: "userId",
            render: (id: string, r) =>
              r.subAccount ? <Tag>{t("apiKeys.sub", { id })}</Tag> : t("apiKeys.main"),
          },
          {
            title: t("apiKeys.permissions"),
            dataIndex: "permissions",
            render: (p: string[]) => p.map((x) => <Tag key={x}>{x}</Tag>),
          },
          {
            title: t("apiKeys.created"),
            dataIndex: "createdAt",
            render: (at: number) => formatWhen(at, locale),
          },
        ]}
      />
      <Button type="primary" href={manage} style={{ marginTop: 16 }} data-testid="api-keys-manage">
        {t("apiKeys.manage")}
      </Button>
    </>
  );
}
