import { isApiError } from "@meridian/client";
import { localizePath } from "@meridian/contracts/locales";
import { Alert, Button, Card, Form, Input, Result } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../api/account-client.ts";
import { resetPasskeyAssertion } from "../../api/passkey-client.ts";
import { accountCardStyle } from "../../ui/account-styles.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { failureText } from "./security/security-shell.tsx";
import { SendCodeInput } from "./security/send-code.tsx";

const PHONE_LIKE = /^\+?[\d\s-]{4,}$/;
/** SecurityCode.STEP_UP_REQUIRED: the account has a passkey and none was sent. */
const PASSKEY_REQUIRED = "11036";

interface ResetValues {
  account: string;
  areaCode?: string;
  verifyCode: string;
  pwd: string;
  pwdAgain: string;
  googleCode?: string;
}

/** `/forgot-password`: a code to the account's e-mail or phone, then a new password; every session ends. */
export function ForgotPassword({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  const [form] = Form.useForm<ResetValues>();
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const account: string = Form.useWatch("account", form) ?? "";
  const isPhone = PHONE_LIKE.test(account.trim());
  if (done) {
    return (
      <Result
        status="success"
        title={t("reset.done")}
        style={accountCardStyle(480)}
        data-testid="reset-done"
        extra={
          <Button type="primary" href={localizePath(locale, "/login")}>
            {t("login.submit")}
          </Button>
        }
      />
    );
  }
  const submit = async ({ pwdAgain: _, googleCode, ...v }: ResetValues, passkey = false) => {
    setBusy(true);
    setError(undefined);
    const reset = (body: object) =>
      accountClient().api.post("v1/user/public/password/reset", body, { silent: true });
    try {
      const body = { ...v, ...(googleCode && !passkey ? { googleCode } : {}) };
      if (passkey) await reset({ ...body, fidoVerifyCode: await resetPasskeyAssertion() });
      else {
        // An account with a passkey answers 11036 and keeps the code: confirm with the passkey.
        await reset(body).catch(async (err: unknown) => {
          if (!isApiError(err) || err.code !== PASSKEY_REQUIRED) throw err;
          await reset({ ...body, fidoVerifyCode: await resetPasskeyAssertion() });
        });
      }
      setDone(true);
    } catch (err) {
      setError(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };
  const codeTarget = () => {
    const v = form.getFieldsValue();
    if (!v.account || v.account.trim().length < 3) return undefined;
    return isPhone ? { account: v.account.trim(), areaCode: v.areaCode } : { account: v.account.trim() };
  };
  return (
    <Card title={t("reset.title")} style={accountCardStyle(480)}>
      <p>{t("reset.intro")}</p>
      {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} data-testid="reset-error" />}
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item label={t("login.loginName")} name="account" rules={[{ required: true }, { min: 3 }]}>
          <Input autoComplete="username" data-testid="reset-account" />
        </Form.Item>
        {isPhone && (
          <Form.Item
            label={t("login.areaCode")}
            name="areaCode"
            rules={[{ required: true }, { pattern: /^\+?\d{1,4}$/ }]}
          >
            <Input inputMode="numeric" placeholder="44" data-testid="reset-area-code" />
          </Form.Item>
        )}
        <Form.Item
          label={t("register.code")}
          name="verifyCode"
          rules={[{ required: true }, { pattern: /^\d{6}$/ }]}
        >
          <SendCodeInput
            api="v1/user/public/password/sendCode"
            body={codeTarget}
            onError={(err) => setError(failureText(err, t))}
            testId="reset-code"
          />
        </Form.Item>
        <NewPasswordFields
          label={t("password.new")}
          confirmName="pwdAgain"
          testId="reset-password"
          confirmTestId="reset-password-again"
        />
        <Form.Item label={t("reset.google")} name="googleCode" rules={[{ pattern: /^\d{6}$/ }]}>
          <Input inputMode="numeric" maxLength={6} data-testid="reset-google" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="reset-submit">
          {t("reset.submit")}
        </Button>
        <Button
          block
          style={{ marginTop: 8 }}
          loading={busy}
          onClick={() =>
            void form.validateFields().then(
              (v) => submit(v, true),
              () => undefined,
            )
          }
          data-testid="reset-passkey"
        >
          {t("passkeys.usePasskey")}
        </Button>
      </Form>
    </Card>
  );
}
