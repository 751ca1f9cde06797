import type { PasskeyDto } from "@meridian/contracts";
import { Alert, Button, Empty, Form, Input } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useApiData } from "../../../lib/use-api-data.ts";
import { LoadError } from "../../shell/load-error.tsx";
import { accountClient } from "../account-client.ts";
import { addPasskey, withStepUp } from "../passkey-client.ts";
import { failureText, formatWhen } from "./security-shell.tsx";

/** The security page's passkeys: named, listed with when each was added and last used, removable. */
export function PasskeysSection({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  const load = useCallback(
    () =>
      accountClient().api.get<{ passkeys: PasskeyDto[] }>("v1/user/security/passkeys", undefined, {
        silent: true,
      }),
    [],
  );
  const list = useApiData(load);
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  const act = async (step: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      setNotice(await step());
      await list.reload();
    } catch (err) {
      setError(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };
  const add = (v: { name: string }) =>
    act(async () => {
      await addPasskey(v.name.trim());
      form.resetFields();
      return t("passkeys.added");
    });
  const remove = (id: string) =>
    act(async () => {
      await withStepUp(() => accountClient().api.post("v1/user/passkey/delete", { id }, { silent: true }));
      return t("passkeys.removed");
    });
  const passkeys = list.data?.passkeys;
  return (
    <section style={{ marginTop: 24 }} aria-labelledby="passkeys-title" data-testid="passkeys-section">
      <h3 id="passkeys-title">{t("passkeys.title")}</h3>
      <p>{t("passkeys.intro")}</p>
      <LoadError error={list.error} onRetry={() => void list.reload()} />
      {notice && (
        <Alert type="success" title={notice} data-testid="passkeys-notice" style={{ marginBottom: 12 }} />
      )}
      {error && (
        <Alert type="error" title={error} data-testid="passkeys-error" style={{ marginBottom: 12 }} />
      )}
      {passkeys !== undefined &&
        (passkeys.length === 0 ? (
          <Empty description={t("passkeys.none")} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <ul className="security-items" data-testid="passkeys-list">
            {passkeys.map((p) => (
              <li key={p.id} data-testid="passkey-item">
                <span>
                  <strong data-testid="passkey-name">{p.name}</strong>
                  <br />
                  <span className="security-device-meta">
                    {t("passkeys.created", { when: formatWhen(p.createdAt, locale) })} ·{" "}
                    {p.lastUsedAt === null
                      ? t("passkeys.neverUsed")
                      : t("passkeys.lastUsed", { when: formatWhen(p.lastUsedAt, locale) })}
                  </span>
                </span>
                <Button
                  danger
                  size="small"
                  disabled={busy}
                  onClick={() => void remove(p.id)}
                  data-testid="passkey-remove"
                >
                  {t("passkeys.remove")}
                </Button>
              </li>
            ))}
          </ul>
        ))}
      <Form form={form} layout="vertical" onFinish={add} style={{ marginTop: 12 }}>
        <Form.Item
          label={t("passkeys.name")}
          name="name"
          rules={[{ required: true, whitespace: true }, { max: 64 }]}
        >
          <Input
            maxLength={64}
            placeholder={t("passkeys.namePlaceholder")}
            data-testid="passkey-name-input"
          />
        </Form.Item>
        <Button htmlType="submit" loading={busy} data-testid="passkey-add">
          {t("passkeys.add")}
        </Button>
      </Form>
    </section>
  );
}
