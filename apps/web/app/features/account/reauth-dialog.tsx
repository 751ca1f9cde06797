import type { LoginAnswer, VerifyMethod } from "@meridian/contracts";
import { Alert, Button, Form, Input, type InputRef, Modal } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../api/account-client.ts";
import { endReauth, type ReauthRequest } from "../../api/reauth-events.ts";
import { errorText } from "../../api/use-account.ts";
import accountAntdHref from "../../styles/account-antd.generated.css?url";

const CODE_FIELD: Record<
  VerifyMethod,
  "googleCode" | "emailCode" | "mobileCode" | "recoveryCode" | "fidoVerifyCode"
> = {
  google: "googleCode",
  email: "emailCode",
  mobile: "mobileCode",
  recovery: "recoveryCode",
  passkey: "fidoVerifyCode",
};

/**
 * The password step (and the account's second factor, when it has one) that binds a new
 * device key to this browser: a login whose encrypted body carries the new key, as the
 * first login did. The server answers with a session bound to that key.
 */
export function ReauthDialog({ request }: { request: ReauthRequest }) {
  const { t } = useTranslation("shell");
  const [challenge, setChallenge] = useState<{ verifyToken: string; methods: VerifyMethod[] } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  // The modal focuses its close button when it opens: the password field is what to type in.
  const passwordRef = useRef<InputRef | null>(null);

  const finish = async (data: unknown) => {
    await accountClient().security.onLoginSuccess(data);
    endReauth();
    void import("antd/es/message").then(({ default: message }) => message.success(t("reauth.done")));
  };

  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await step();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const submitPassword = (v: { pwd: string }) =>
    run(async () => {
      const data = await accountClient().api.post<LoginAnswer>(
        "v1/user/login",
        {
          loginName: request.loginName,
          ...(request.areaCode === undefined ? {} : { areaCode: request.areaCode }),
          pwd: v.pwd,
        },
        { silent: true },
      );
      if (data.verifyRequired) setChallenge(data);
      else await finish(data);
    });

  const submitCode = (v: { code: string }) =>
    run(async () => {
      if (challenge === undefined) return;
      const method = challenge.methods[0] ?? "email";
      const data = await accountClient().api.post(
        "v1/user/login/verify-login",
        { verifyToken: challenge.verifyToken, [CODE_FIELD[method]]: v.code },
        { silent: true },
      );
      await finish(data);
    });

  return (
    <Modal
      open
      title={t("reauth.title")}
      footer={null}
      onCancel={endReauth}
      afterOpenChange={(open) => {
        if (open) passwordRef.current?.focus();
      }}
      destroyOnHidden
    >
      {/* The dialog opens on any page: its Form, Input and Alert styles come with it (a
          React stylesheet resource, so it shows once they have loaded, never unstyled). */}
      <link rel="stylesheet" href={accountAntdHref} precedence="antd" />
      <div data-testid="reauth-dialog">
        <p>{t("reauth.body", { name: request.loginName })}</p>
        {error && (
          <Alert type="error" title={error} data-testid="reauth-error" style={{ marginBottom: 16 }} />
        )}
        {challenge === undefined ? (
          <Form layout="vertical" onFinish={submitPassword}>
            <Form.Item label={t("reauth.password")} name="pwd" rules={[{ required: true }]}>
              <Input.Password
                ref={passwordRef}
                autoComplete="current-password"
                autoFocus
                data-testid="reauth-password"
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy} data-testid="reauth-submit">
              {t("reauth.submit")}
            </Button>
          </Form>
        ) : (
          <Form layout="vertical" onFinish={submitCode}>
            <Form.Item
              label={t("reauth.code")}
              name="code"
              rules={[{ required: true }, { pattern: /^\d{6}$/ }]}
            >
              <Input inputMode="numeric" maxLength={6} autoFocus data-testid="reauth-code" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy} data-testid="reauth-verify">
              {t("reauth.submit")}
            </Button>
          </Form>
        )}
      </div>
    </Modal>
  );
}
