import { Alert, Button, Card, Form, Input, Space, Tabs } from "antd";
import { useState } from "react";
import { accountClient } from "./account-client.ts";
import { errorText } from "./use-account.ts";

type Kind = "email" | "mobile";

interface Values {
  email?: string;
  areaCode?: string;
  mobile?: string;
  code: string;
  pwd: string;
  rePwd: string;
}

/** Email / Phone registration with the code step; `account` (from `?account=`) prefills either tab. */
export function RegisterForm({ account, onDone }: { account?: string | undefined; onDone: () => void }) {
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
    <Card title="Create a free account" style={{ maxWidth: 460, margin: "32px auto" }}>
      {error && (
        <Alert type="error" title={error} data-testid="register-error" style={{ marginBottom: 16 }} />
      )}
      <Tabs
        activeKey={kind}
        onChange={(k) => setKind(k === "mobile" ? "mobile" : "email")}
        items={[
          { key: "email", label: "Email" },
          { key: "mobile", label: "Phone" },
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
          <Form.Item label="Email" name="email" rules={[{ required: true }, { type: "email" }]}>
            <Input autoComplete="email" data-testid="register-email" />
          </Form.Item>
        ) : (
          <Space.Compact block>
            <Form.Item
              label="Area code"
              name="areaCode"
              rules={[{ required: true }, { pattern: /^\+?\d{1,4}$/ }]}
            >
              <Input style={{ width: 90 }} placeholder="44" />
            </Form.Item>
            <Form.Item
              label="Phone number"
              name="mobile"
              rules={[{ required: true }, { pattern: /^\d{4,15}$/ }]}
              style={{ flex: 1 }}
            >
              <Input autoComplete="tel-national" data-testid="register-mobile" />
            </Form.Item>
          </Space.Compact>
        )}
        <Form.Item label="Verification code" extra={sentTo ? `Code sent to ${sentTo}` : undefined} required>
          <Space.Compact block>
            <Form.Item name="code" noStyle rules={[{ required: true }, { pattern: /^\d{6}$/ }]}>
              <Input inputMode="numeric" maxLength={6} data-testid="register-code" />
            </Form.Item>
            <Button onClick={sendCode} data-testid="register-send-code">
              Send code
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item label="Password" name="pwd" rules={[{ required: true }, { min: 8 }, { max: 128 }]}>
          <Input.Password autoComplete="new-password" data-testid="register-password" />
        </Form.Item>
        <Form.Item
          label="Confirm password"
          name="rePwd"
          dependencies={["pwd"]}
          rules={[
            { required: true },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue("pwd")
                  ? Promise.resolve()
                  : Promise.reject(new Error("The passwords do not match")),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="register-password-again" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="register-submit">
          Sign up
        </Button>
      </Form>
    </Card>
  );
}
