import type { PasskeyDto } from "@meridian/contracts";
import { Button, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { addPasskey, withStepUp } from "../../../api/passkey-client.ts";
import { CredentialList, useCredentials } from "./credential-list.tsx";
import { formatWhen } from "./security-shell.tsx";

/** The security page's passkeys: named, listed with when each was added and last used, removable. */
export function PasskeysSection({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  const { list, action } = useCredentials<{ passkeys: PasskeyDto[] }>("v1/user/security/passkeys");
  const [form] = Form.useForm<{ name: string }>();
  const add = (v: { name: string }) =>
    action.run(async () => {
      await addPasskey(v.name.trim());
      form.resetFields();
      return t("passkeys.added");
    });
  return (
    <section style={{ marginTop: 24 }} aria-labelledby="passkeys-title" data-testid="passkeys-section">
      <h3 id="passkeys-title">{t("passkeys.title")}</h3>
      <p>{t("passkeys.intro")}</p>
      <CredentialList
        read={list}
        items={list.data?.passkeys}
        action={action}
        itemKey={(p) => p.id}
        empty={t("passkeys.none")}
        testId="passkeys"
        itemTestId="passkey-item"
        name={(p) => <strong data-testid="passkey-name">{p.name}</strong>}
        meta={(p) => (
          <>
            {t("passkeys.created", { when: formatWhen(p.createdAt, locale) })} ·{" "}
            {p.lastUsedAt === null
              ? t("passkeys.neverUsed")
              : t("passkeys.lastUsed", { when: formatWhen(p.lastUsedAt, locale) })}
          </>
        )}
        remove={{
          label: t("passkeys.remove"),
          testId: "passkey-remove",
          run: async (p) => {
            await withStepUp(() =>
              accountClient().api.post("v1/user/passkey/delete", { id: p.id }, { silent: true }),
            );
            return t("passkeys.removed");
          },
        }}
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
