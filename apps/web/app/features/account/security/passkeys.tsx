import type { PasskeyDto } from "@meridian/contracts";
import { Button, Form, Input } from "antd";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { addPasskey, withStepUp } from "../../../api/passkey-client.ts";
import { useApiData } from "../../../lib/use-api-data.ts";
import { ListFrame, useListAction } from "../../../ui/list-frame.tsx";
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
  const action = useListAction(list.reload, (err) => failureText(err, t));
  const [form] = Form.useForm<{ name: string }>();
  const add = (v: { name: string }) =>
    action.run(async () => {
      await addPasskey(v.name.trim());
      form.resetFields();
      return t("passkeys.added");
    });
  const remove = (id: string) =>
    action.run(async () => {
      await withStepUp(() => accountClient().api.post("v1/user/passkey/delete", { id }, { silent: true }));
      return t("passkeys.removed");
    });
  return (
    <section style={{ marginTop: 24 }} aria-labelledby="passkeys-title" data-testid="passkeys-section">
      <h3 id="passkeys-title">{t("passkeys.title")}</h3>
      <p>{t("passkeys.intro")}</p>
      <ListFrame
        read={list}
        items={list.data?.passkeys}
        itemKey={(p) => p.id}
        itemProps={() => ({ "data-testid": "passkey-item" })}
        empty={t("passkeys.none")}
        notice={action.notice}
        error={action.error}
        testId="passkeys"
        renderItem={(p) => (
          <>
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
              disabled={action.busy}
              onClick={() => void remove(p.id)}
              data-testid="passkey-remove"
            >
              {t("passkeys.remove")}
            </Button>
          </>
        )}
      />
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
        <Button htmlType="submit" loading={action.busy} data-testid="passkey-add">
          {t("passkeys.add")}
        </Button>
      </Form>
    </section>
  );
}
