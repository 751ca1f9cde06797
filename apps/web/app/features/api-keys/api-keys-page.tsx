import { isApiError } from "@meridian/client";
import { ApiKeyCode, type ApiKeyView, type CreatedApiKey, type SubAccountView } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Alert, Button, Card, Descriptions, Modal, Space, Tag, Typography } from "antd";
import type { TFunction } from "i18next";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../api/account-client.ts";
import { withStepUp } from "../../api/passkey-client.ts";
import { listSubs } from "../../api/subaccounts.ts";
import { useAccount } from "../../api/use-account.ts";
import { accountCardStyle } from "../../ui/account-styles.ts";
import { LoadError } from "../shell/load-error.tsx";
import { KeyForm, type KeyFormValues } from "./api-key-form.tsx";

const KEYS = "v1/user/api-keys";

/** A refusal as the user reads it: the known codes translated, else the server's message. */
function failure(err: unknown, t: TFunction): string {
  if (isApiError(err)) {
    if (err.code === ApiKeyCode.SECOND_FACTOR_REQUIRED) return t("errors.codeRequired");
    if (err.code === ApiKeyCode.SECOND_FACTOR_INVALID) return t("errors.codeInvalid");
    if (err.code === ApiKeyCode.TOO_MANY_KEYS) return t("errors.tooMany");
    if (err.code === ApiKeyCode.RSA_KEY_INVALID) return t("errors.rsaInvalid");
  }
  return t("errors.generic", { detail: err instanceof Error ? err.message : String(err) });
}

function when(ms: number | null, locale: string): string {
  return ms === null ? "—" : new Date(ms).toLocaleString(locale === "ar" ? "ar" : undefined);
}

function KeyCard({
  k,
  locale,
  owner,
  onEdit,
  onDelete,
}: {
  k: ApiKeyView;
  locale: string;
  /** Whose paper account the key trades, as the user names it. */
  owner: string;
  onEdit(): void;
  onDelete(): Promise<void>;
}) {
  const { t } = useTranslation("apiKeys");
  const [confirming, setConfirming] = useState(false);
  return (
    <Card
      size="small"
      title={k.label}
      data-testid="api-key"
      style={{ marginBottom: 12 }}
      extra={
        <Space wrap>
          <Button size="small" onClick={onEdit} data-testid="api-key-edit">
            {t("list.edit")}
          </Button>
          {confirming ? (
            <Button
              size="small"
              danger
              type="primary"
              onClick={() => void onDelete()}
              data-testid="api-key-delete-confirm"
            >
              {t("list.confirmDelete")}
            </Button>
          ) : (
            <Button size="small" danger onClick={() => setConfirming(true)} data-testid="api-key-delete">
              {t("list.delete")}
            </Button>
          )}
        </Space>
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t("list.apiKey")}>
          <Typography.Text copyable code style={{ wordBreak: "break-all" }}>
            {k.apiKey}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t("list.owner")}>
          <span data-testid="api-key-owner">{owner}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t("list.permissions")}>
          <Space size={[4, 4]} wrap>
            {k.permissions.map((p) => (
              <Tag key={p}>{t(`perm.${p}`)}</Tag>
            ))}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t("list.ips")}>
          <span data-testid="api-key-ips">{k.ips.length === 0 ? t("list.anyIp") : k.ips.join(", ")}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t("list.signType")}>{k.signType}</Descriptions.Item>
        <Descriptions.Item label={t("list.created")}>{when(k.createdAt, locale)}</Descriptions.Item>
        <Descriptions.Item label={t("list.expires")}>
          {k.expiresAt === null ? t("list.noExpiry") : when(k.expiresAt, locale)}
        </Descriptions.Item>
        <Descriptions.Item label={t("list.lastUsed")}>{when(k.lastUsedAt, locale)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** `/account/newapi`: create, list, edit and delete the API keys of the user's paper account. */
export function ApiKeysPage({ locale }: { locale: string }) {
  const { t } = useTranslation("apiKeys");
  const { user, loading } = useAccount();
  const [keys, setKeys] = useState<ApiKeyView[] | undefined>();
  const [created, setCreated] = useState<CreatedApiKey | undefined>();
  const [editing, setEditing] = useState<ApiKeyView | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [loadError, setLoadError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [subs, setSubs] = useState<SubAccountView[]>([]);

  const load = useCallback(async () => {
    setKeys(await accountClient().api.get<ApiKeyView[]>(KEYS, undefined, { silent: true }));
    setLoadError(null);
  }, []);
  // A failed read is said in the list's card with a retry, not left as an empty card.
  const read = useCallback(() => void load().catch((err: unknown) => setLoadError(err)), [load]);
  useEffect(() => {
    if (user !== undefined) read();
  }, [user, read]);
  // A master may make keys for its sub-accounts (a sub cannot have subs of its own).
  useEffect(() => {
    if (user === undefined || user.subAccount) return;
    void listSubs()
      .then((r) => setSubs(r.subs.filter((s) => !s.frozen)))
      .catch(() => setSubs([]));
  }, [user]);
  const ownerName = (k: ApiKeyView) =>
    k.owner.type === "user"
      ? t("form.ownerMain")
      : (subs.find((s) => s.userId === k.owner.id)?.label ?? k.owner.id);

  if (loading) return null;
  if (user === undefined) {
    const href = `${localizePath(locale, "/login")}?redirect=${encodeURIComponent(localizePath(locale, "/account/newapi"))}`;
    return (
      <Card style={accountCardStyle(720)}>
        <Alert type="info" title={t("loginFirst")} action={<a href={href}>{t("logIn")}</a>} />
      </Card>
    );
  }

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(failure(err, t));
    } finally {
      setBusy(false);
    }
  };
  const create = (v: KeyFormValues) =>
    run(async () => {
      const made = await withStepUp(() => accountClient().api.post<CreatedApiKey>(KEYS, v, { silent: true }));
      setCreated(made);
      setFormKey((n) => n + 1);
      await load();
    });
  const save = (k: ApiKeyView, v: KeyFormValues) =>
    run(async () => {
      const { passphrase: _p, rsaPublicKey: _r, ...patch } = v;
      await withStepUp(() => accountClient().api.post(`${KEYS}/${k.apiKey}`, patch, { silent: true }));
      setEditing(undefined);
      await load();
    });
  const remove = (k: ApiKeyView) =>
    run(async () => {
      await accountClient().api.post(`${KEYS}/${k.apiKey}/delete`, {}, { silent: true });
      await load();
    });

  return (
    <div style={accountCardStyle(760)}>
      <Card title={t("title")} data-testid="api-keys-page">
        <Typography.Paragraph type="secondary">{t("intro")}</Typography.Paragraph>
        {error !== undefined && (
          <Alert type="error" title={error} style={{ marginBottom: 16 }} data-testid="api-key-error" />
        )}
        <KeyForm
          key={formKey}
          needsCode={user.googleEnable}
          busy={busy}
          onSubmit={create}
          testId="api-key-create"
          subs={subs}
        />
      </Card>
      <Card
        title={t("list.title")}
        style={{ marginTop: 16 }}
        loading={keys === undefined && loadError === null}
        data-testid="api-key-list"
      >
        <LoadError error={loadError} onRetry={read} />
        {keys === undefined ? null : keys.length === 0 ? (
          <Typography.Text type="secondary" data-testid="api-key-empty">
            {t("list.empty")}
          </Typography.Text>
        ) : (
          keys.map((k) => (
            <KeyCard
              key={k.apiKey}
              k={k}
              locale={locale}
              owner={ownerName(k)}
              onEdit={() => setEditing(k)}
              onDelete={() => remove(k)}
            />
          ))
        )}
      </Card>
      <Modal
        open={created !== undefined}
        destroyOnHidden
        title={t("created.title")}
        onCancel={() => setCreated(undefined)}
        footer={
          <Button type="primary" onClick={() => setCreated(undefined)} data-testid="api-key-created-done">
            {t("created.done")}
          </Button>
        }
      >
        {created !== undefined && (
          <div data-testid="api-key-created">
            <Alert type="warning" title={t("created.warning")} style={{ marginBottom: 12 }} />
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t("list.apiKey")}>
                <Typography.Text
                  copyable
                  code
                  data-testid="created-api-key"
                  style={{ wordBreak: "break-all" }}
                >
                  {created.apiKey}
                </Typography.Text>
              </Descriptions.Item>
              {created.secret !== undefined && (
                <Descriptions.Item label={t("created.secret")}>
                  <Typography.Text
                    copyable
                    code
                    data-testid="created-secret"
                    style={{ wordBreak: "break-all" }}
                  >
                    {created.secret}
                  </Typography.Text>
                </Descriptions.Item>
              )}
            </Descriptions>
            <Typography.Paragraph style={{ marginTop: 12 }}>{t("created.howTo")}</Typography.Paragraph>
          </div>
        )}
      </Modal>
      <Modal
        open={editing !== undefined}
        title={t("edit.title", { label: editing?.label ?? "" })}
        onCancel={() => setEditing(undefined)}
        footer={null}
        destroyOnHidden
      >
        {editing !== undefined && (
          <KeyForm
            editing={editing}
            needsCode={user.googleEnable}
            busy={busy}
            onSubmit={(v) => save(editing, v)}
            testId="api-key-edit-form"
          />
        )}
      </Modal>
    </div>
  );
}
