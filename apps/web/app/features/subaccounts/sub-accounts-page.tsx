import {
  SUB_EMAIL_DOMAIN,
  type SubAccountView,
  type SubListResult,
  type SubTransferView,
} from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Alert, Button, Card, Form, Input, Result } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  createSub,
  freezeSub,
  listSubs,
  recentTransfers,
  subErrorText,
  switchBack,
  switchInto,
} from "../../api/subaccounts.ts";
import { useAccount } from "../../api/use-account.ts";
import { accountCardStyle } from "../../ui/account-styles.ts";
import { assetAmount } from "../../ui/amounts.ts";
import { LoadError } from "../shell/load-error.tsx";
import { SubAccountCard } from "./sub-account-card.tsx";
import { TransferModal } from "./transfer-modal.tsx";

const PATH = "/subaccount/manage";

/** /subaccount/manage: a master's sub-accounts, or, inside a sub, the way back. */
export function SubAccountsPage({ locale }: { locale: string }) {
  const { t } = useTranslation("subaccounts");
  const { user, loading } = useAccount();
  if (loading) return null;
  if (!user) {
    const href = `${localizePath(locale, "/login")}?redirect=${encodeURIComponent(localizePath(locale, PATH))}`;
    return <Result status="info" title={t("loginFirst")} extra={<a href={href}>{t("login")}</a>} />;
  }
  if (user.subAccount) return <InsideSub locale={locale} name={user.loginName} />;
  return <MasterView locale={locale} />;
}

function InsideSub({ locale, name }: { locale: string; name: string }) {
  const { t } = useTranslation("subaccounts");
  const [error, setError] = useState<string | undefined>();
  const back = async () => {
    try {
      await switchBack();
      location.assign(localizePath(locale, PATH));
    } catch (err) {
      setError(subErrorText(t, err));
    }
  };
  return (
    <Card title={t("inSub.title")} style={accountCardStyle(560)} data-testid="sub-inside">
      {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} />}
      <p>{t("inSub.body", { name })}</p>
      <Button type="primary" onClick={back} data-testid="sub-switch-back">
        {t("inSub.back")}
      </Button>
    </Card>
  );
}

function MasterView({ locale }: { locale: string }) {
  const { t } = useTranslation("subaccounts");
  const [data, setData] = useState<SubListResult | undefined>();
  const [history, setHistory] = useState<SubTransferView[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [loadError, setLoadError] = useState<unknown>(null);
  const [transferTo, setTransferTo] = useState<SubAccountView | undefined>();
  const [form] = Form.useForm<{ name: string; label: string }>();

  const reload = useCallback(async () => {
    try {
      const [list, recent] = await Promise.all([listSubs(), recentTransfers()]);
      setData(list);
      setHistory(recent);
      setLoadError(null);
    } catch (err) {
      setLoadError(err);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const act = async (fn: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await fn();
      await reload();
    } catch (err) {
      setError(subErrorText(t, err));
    }
  };
  const labelOf = (id: string) => data?.subs.find((s) => s.userId === id)?.label ?? id;

  return (
    <div style={accountCardStyle(880)} data-testid="sub-page">
      <Card
        title={t("title")}
        extra={
          data ? (
            <span data-testid="sub-count">{t("count", { count: data.subs.length, max: data.max })}</span>
          ) : null
        }
        style={{ marginBottom: 16 }}
      >
        <p>{t("lead")}</p>
        {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} data-testid="sub-error" />}
        <Form
          form={form}
          layout="inline"
          className="sub-create"
          onFinish={(v) =>
            act(async () => {
              await createSub(v.name, v.label);
              form.resetFields();
            })
          }
          data-testid="sub-create-form"
        >
          <Form.Item
            name="name"
            rules={[
              { required: true },
              { pattern: /^[a-zA-Z][a-zA-Z0-9]{3,19}$/, message: t("create.nameRule") },
            ]}
          >
            <Input
              placeholder={t("create.name")}
              addonAfter={<span dir="ltr">@{SUB_EMAIL_DOMAIN}</span>}
              data-testid="sub-name"
            />
          </Form.Item>
          <Form.Item name="label" rules={[{ required: true }, { max: 32 }]}>
            <Input placeholder={t("create.label")} data-testid="sub-label" />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="sub-create">
            {t("create.submit")}
          </Button>
        </Form>
      </Card>
      <LoadError error={loadError} onRetry={() => void reload()} />
      {data === undefined && loadError === null ? <Card loading data-testid="sub-loading" /> : null}
      {data?.subs.length === 0 ? <p className="sub-empty">{t("list.none")}</p> : null}
      {data?.subs.map((sub) => (
        <SubAccountCard
          key={sub.userId}
          sub={sub}
          onTransfer={() => setTransferTo(sub)}
          onFreeze={() => act(() => freezeSub(sub.userId, !sub.frozen))}
          onSwitch={() =>
            act(async () => {
              await switchInto(sub.userId);
              location.assign(localizePath(locale, "/asset"));
            })
          }
        />
      ))}
      {history.length > 0 ? (
        <Card size="small" title={t("history.title")} data-testid="sub-history">
          <ul className="sub-history">
            {history.map((h) => (
              <li key={h.id}>
                <span>{new Date(h.createdAt).toLocaleString(locale)}</span>{" "}
                <span>{t(`transfer.directions.${h.direction}`)}</span> <span>{labelOf(h.subUserId)}</span>{" "}
                <span>{t(`wallets.${h.wallet}`)}</span>{" "}
                <strong dir="ltr">
                  {assetAmount(h.asset, h.amount)} {h.asset}
                </strong>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {transferTo ? (
        <TransferModal
          sub={transferTo}
          onClose={() => setTransferTo(undefined)}
          onDone={() => {
            setTransferTo(undefined);
            void reload();
          }}
        />
      ) : null}
    </div>
  );
}
