import { Alert, Button, Card, Form, Input, Space, Tabs } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../api/account-client.ts";
import { errorText } from "../../api/use-account.ts";
import { accountCardStyle } from "../../ui/account-styles.ts";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { ThirdPartyButtons } from "./third-party.tsx";

type Kind = "email" | "mobile";

interface Values {
  email?: string;
  areaCode?: string;
  mobile?: string;
  code: string;
  pwd: string;
  rePwd: string;
}

/**
 * Email / Phone registration with the code step; `account` (from `?account=`) prefills
 * either tab. `loginHref` is the login page (carrying the same return path).
 */
export function RegisterForm({
  account,
  loginHref,
  onDone,
  locale,
  returnTo,
}: {
  account?: string | undefined;
  loginHref: string;
  onDone: () => void;
  /** The page's language: the third-party buttons' callback pages carry it. */
  locale: string;
  /** Where a third-party sign-in started here goes once it is done (`?redirect=`). */
  returnTo?: string | undefined;
}) {
  const { t } = useTranslation("account");
  const prefillEmail = account?.includes("@") ? account : undefined;
  const prefillMobile =
    account !== undefined && !account.includes("@") ? account.replace(/\D/g, "") : undefined;
  const [kind, setKind] = useState<Kind>(prefillMobile ? "mobile" : "email");
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const sendCode = async () => {
    setError(undefined);
    try {
      const fields = kind === "email" ? ["email"] : ["areaCode", "mobile"];
      const v = await form.validateFields(fields as (keyof Values)[]);
      const body =
        kind === "email"
          ? { bizType: "register", email: v.email }
          : { bizType: "register", areaCode: v.areaCode, mobile: v.mobile };
      const data = await accountClient().api.post<{ sentTo: string }>("v1/user/public/sendCode", body, {
        silent: true,
      });
      setSentTo(data.sentTo);
    } catch (err) {
      if (err instanceof Error) setError(errorText(err));
    }
  };

  const submit = async (v: Values) => {
    setBusy(true);
    setError(undefined);
    try {
      const body =
        kind === "email"
          ? { email: v.email, emailCode: v.code, pwd: v.pwd }
          : { areaCode: v.areaCode, mobile: v.mobile, mobileCode: v.code, pwd: v.pwd };
      const data = await accountClient().api.post(`v1/user/register/${kind}`, body, { silent: true });
      await accountClient().security.onLoginSuccess(data);
      onDone();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t("register.title")} style={accountCardStyle(460)}>
      {error && (
        <Alert type="error" title={error} data-testid="register-error" style={{ marginBottom: 16 }} />
      )}
      <Tabs
        activeKey={kind}
        onChange={(k) => setKind(k === "mobile" ? "mobile" : "email")}
        items={[
          { key: "email", label: t("register.tabEmail") },
          { key: "mobile", label: t("register.tabPhone") },
        ]}
      />
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ email: prefillEmail, mobile: prefillMobile }}
        data-testid="register-form"
      >
        {kind === "email" ? (
          <Form.Item label={t("register.email")} name="email" rules={[{ required: true }, { type: "email" }]}>
            <Input autoComplete="email" data-testid="register-email" />
          </Form.Item>
        ) : (
          <Space.Compact block>
            <Form.Item
              label={t("register.areaCode")}
              name="areaCode"
              rules={[{ required: true }, { pattern: /^\+?\d{1,4}$/ }]}
            >
              <Input style={{ width: 90 }} placeholder="44" />
            </Form.Item>
            <Form.Item
              label={t("register.mobile")}
              name="mobile"
              rules={[{ required: true }, { pattern: /^\d{4,15}$/ }]}
              style={{ flex: 1 }}
            >
              <Input autoComplete="tel-national" data-testid="register-mobile" />
            </Form.Item>
          </Space.Compact>
        )}
        <Form.Item
          label={t("register.code")}
          extra={sentTo ? t("register.codeSent", { to: sentTo }) : undefined}
          required
        >
          <Space.Compact block>
            <Form.Item
              name="code"
              noStyle
              messageVariables={{ label: t("register.code") }}
              rules={[{ required: true }, { pattern: /^\d{6}$/ }]}
            >
              <Input inputMode="numeric" maxLength={6} data-testid="register-code" />
            </Form.Item>
            <Button onClick={sendCode} data-testid="register-send-code">
              {t("register.sendCode")}
            </Button>
          </Space.Compact>
        </Form.Item>
        <NewPasswordFields
          label={t("register.password")}
          confirmName="rePwd"
          testId="register-password"
          confirmTestId="register-password-again"
        />
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="register-submit">
          {t("register.submit")}
        </Button>
        <ThirdPartyButtons locale={locale} returnTo={returnTo} />
        <p style={{ marginTop: 16, marginBottom: 0 }}>
          {t("register.haveAccount")} <a href={loginHref}>{t("register.logIn")}</a>
        </p>
      </Form>
    </Card>
  );
}
