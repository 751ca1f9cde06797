import {
  API_KEY_MAX_IPS,
  API_KEY_PERMISSIONS,
  type ApiKeyPermission,
  type ApiKeyView,
  isIpOrCidr,
} from "@meridian/contracts";
import { Button, Checkbox, Form, Input, Radio, Select } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** What the create form hands the page (the request body of `POST /v1/user/api-keys`). */
export interface KeyFormValues {
  label: string;
  permissions: ApiKeyPermission[];
  passphrase?: string;
  ips: string[];
  rsaPublicKey?: string;
  /** A sub-account's user id: the key trades that sub's paper account. */
  subUid?: string;
  googleCode?: string;
}

interface RawValues {
  label: string;
  permissions: ApiKeyPermission[];
  passphrase?: string;
  ips?: string;
  signType?: "HMAC" | "RSA";
  rsaPublicKey?: string;
  owner?: string;
  googleCode?: string;
}

/** The main account's value in the account choice (a sub is its user id). */
const MAIN = "main";

/** Addresses typed one per line or separated by commas or spaces. */
export function parseIps(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

interface KeyFormProps {
  /** Editing an existing key: no passphrase or signing choice (they cannot change). */
  editing?: ApiKeyView;
  /** The user has an authenticator: its code is asked for. */
  needsCode: boolean;
  busy: boolean;
  onSubmit(values: KeyFormValues): void;
  testId: string;
  /** The master's sub-accounts a new key may belong to (none: the choice is not shown). */
  subs?: readonly { userId: string; label: string }[];
}

/** The create and edit form of an API key. */
export function KeyForm({ editing, needsCode, busy, onSubmit, testId, subs = [] }: KeyFormProps) {
  const { t } = useTranslation("apiKeys");
  const [form] = Form.useForm<RawValues>();
  const [signType, setSignType] = useState<"HMAC" | "RSA">("HMAC");
  const submit = (v: RawValues) =>
    onSubmit({
      label: v.label.trim(),
      permissions: v.permissions,
      ips: parseIps(v.ips),
      ...(editing === undefined && v.passphrase !== undefined ? { passphrase: v.passphrase } : {}),
      ...(editing === undefined && signType === "RSA" && v.rsaPublicKey
        ? { rsaPublicKey: v.rsaPublicKey }
        : {}),
      ...(editing === undefined && v.owner !== undefined && v.owner !== MAIN ? { subUid: v.owner } : {}),
      ...(needsCode && v.googleCode ? { googleCode: v.googleCode } : {}),
    });
  return (
    <Form
      form={form}
      // The form's name prefixes its field ids: the create and edit forms can be on the page together.
      name={testId}
      layout="vertical"
      onFinish={submit}
      data-testid={testId}
      initialValues={{
        label: editing?.label ?? "",
        permissions: editing?.permissions ?? ["read"],
        ips: editing?.ips.join("\n") ?? "",
        signType: "HMAC",
        owner: MAIN,
      }}
    >
      {editing === undefined && subs.length > 0 && (
        <Form.Item name="owner" label={t("form.owner")}>
          <Select
            data-testid="key-owner"
            options={[
              { value: MAIN, label: t("form.ownerMain") },
              ...subs.map((s) => ({ value: s.userId, label: s.label })),
            ]}
          />
        </Form.Item>
      )}
      <Form.Item
        name="label"
        label={t("form.label")}
        rules={[{ required: true, max: 32, message: t("form.labelRule") }]}
      >
        <Input maxLength={32} data-testid="key-label" />
      </Form.Item>
      <Form.Item
        name="permissions"
        label={t("form.permissions")}
        rules={[{ required: true, type: "array", min: 1, message: t("form.permissionsRule") }]}
      >
        <Checkbox.Group data-testid="key-permissions">
          {API_KEY_PERMISSIONS.map((p) => (
            <Checkbox key={p} value={p} data-testid={`perm-${p}`}>
              {t(`perm.${p}`)}
            </Checkbox>
          ))}
          <Checkbox value="withdraw" disabled>
            {t("perm.withdraw")}
          </Checkbox>
        </Checkbox.Group>
      </Form.Item>
      {editing === undefined && (
        <Form.Item
          name="passphrase"
          label={t("form.passphrase")}
          extra={t("form.passphraseHelp")}
          rules={[{ required: true, pattern: /^[A-Za-z0-9]{8,32}$/, message: t("form.passphraseRule") }]}
        >
          <Input.Password autoComplete="new-password" data-testid="key-passphrase" />
        </Form.Item>
      )}
      <Form.Item
        name="ips"
        label={t("form.ips")}
        extra={t("form.ipsHelp", { max: API_KEY_MAX_IPS })}
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              const ips = parseIps(value);
              if (ips.length > API_KEY_MAX_IPS || ips.some((ip) => !isIpOrCidr(ip)))
                throw new Error(t("form.ipsRule", { max: API_KEY_MAX_IPS }));
            },
          },
        ]}
      >
        <Input.TextArea rows={3} placeholder="203.0.113.7&#10;10.0.0.0/8" data-testid="key-ips" />
      </Form.Item>
      {editing === undefined && (
        <Form.Item name="signType" label={t("form.signType")}>
          <Radio.Group
            onChange={(e) => setSignType(e.target.value as "HMAC" | "RSA")}
            data-testid="key-sign-type"
          >
            <Radio value="HMAC">{t("form.hmac")}</Radio>
            <Radio value="RSA" data-testid="key-sign-rsa">
              {t("form.rsa")}
            </Radio>
          </Radio.Group>
        </Form.Item>
      )}
      {editing === undefined && signType === "RSA" && (
        <Form.Item
          name="rsaPublicKey"
          label={t("form.rsaPublicKey")}
          rules={[{ required: true, message: t("form.rsaRule") }]}
        >
          <Input.TextArea rows={5} placeholder="-----BEGIN PUBLIC KEY-----" data-testid="key-rsa" />
        </Form.Item>
      )}
      {needsCode && (
        <Form.Item
          name="googleCode"
          label={t("form.googleCode")}
          rules={[{ required: true, pattern: /^\d{6}$/, message: t("form.googleCodeRule") }]}
        >
          <Input inputMode="numeric" maxLength={6} data-testid="key-google-code" />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" loading={busy} data-testid={`${testId}-submit`}>
        {editing === undefined ? t("form.create") : t("form.save")}
      </Button>
    </Form>
  );
}
