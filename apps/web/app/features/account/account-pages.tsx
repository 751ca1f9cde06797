import type { GoogleSetup, UserRecord } from "@meridian/contracts";
import { Alert, Button, Card, Descriptions, Form, Input, Result, Select, Steps, Typography } from "antd";
import { useState } from "react";
import { accountClient } from "./account-client.ts";
import { errorText, useAccount } from "./use-account.ts";

function LoginFirst() {
  return <Result status="info" title="Please log in" extra={<a href="/login">Log in</a>} />;
}

/** Account overview: the logged-in user record and logout. */
export function AccountOverview() {
  const { user, loading } = useAccount();
  if (loading) return null;
  if (!user) return <LoginFirst />;
  const logout = async () => {
    await accountClient().logout();
    location.assign("/");
  };
  return (
    <Card
      title="Account overview"
      style={{ maxWidth: 720, margin: "32px auto" }}
      extra={
        <Button onClick={logout} data-testid="account-logout">
          Log out
        </Button>
      }
    >
      <Descriptions column={1} bordered size="small" data-testid="account-overview">
        <Descriptions.Item label="User id">{user.userId}</Descriptions.Item>
        <Descriptions.Item label="Login name">{user.loginName}</Descriptions.Item>
        <Descriptions.Item label="Email">{user.email || "—"}</Descriptions.Item>
        <Descriptions.Item label="Phone">{user.phone || "—"}</Descriptions.Item>
        <Descriptions.Item label="VIP level">{user.vipLevel}</Descriptions.Item>
        <Descriptions.Item label="Identity level">{user.identityLevel}</Descriptions.Item>
        <Descriptions.Item label="Authenticator">{user.googleEnable ? "On" : "Off"}</Descriptions.Item>
      </Descriptions>
      <p style={{ marginTop: 16 }}>
        <a href="/account/security">Two-factor authentication</a> ·{" "}
        <a href="/account/identity">Identity verification</a>
      </p>
    </Card>
  );
}

/** Two-factor setup: otpauth URI and secret, then a code to bind. */
export function TwoFactorSetup() {
  const { user, loading, reload } = useAccount();
  const [setup, setSetup] = useState<GoogleSetup | undefined>();
  const [error, setError] = useState<string | undefined>();
  if (loading) return null;
  if (!user) return <LoginFirst />;
  const start = async () => {
    setError(undefined);
    try {
      setSetup(await accountClient().api.post<GoogleSetup>("v1/user/google/setup", {}, { silent: true }));
    } catch (err) {
      setError(errorText(err));
    }
  };
  const bind = async (v: { googleCode: string }) => {
    setError(undefined);
    try {
      await accountClient().api.post("v1/user/google/bind", v, { silent: true });
      setSetup(undefined);
      await reload();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Card title="Two-factor authentication" style={{ maxWidth: 560, margin: "32px auto" }}>
      {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} data-testid="tfa-error" />}
      {user.googleEnable ? (
        <Alert
          type="success"
          title="Authenticator app is on: log-ins ask for its code."
          data-testid="tfa-enabled"
        />
      ) : setup === undefined ? (
        <Button type="primary" onClick={start} data-testid="tfa-start">
          Set up an authenticator app
        </Button>
      ) : (
        <Form layout="vertical" onFinish={bind}>
          <p>Add this account to your authenticator app (scan the URI as a QR code, or type the secret):</p>
          <Typography.Paragraph copyable code data-testid="tfa-uri">
            {setup.otpauthUri}
          </Typography.Paragraph>
          <Typography.Paragraph copyable code data-testid="tfa-secret">
            {setup.secret}
          </Typography.Paragraph>
          <Form.Item
            label="Code from the app"
            name="googleCode"
            rules={[{ required: true }, { pattern: /^\d{6}$/ }]}
          >
            <Input inputMode="numeric" maxLength={6} data-testid="tfa-code" />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="tfa-bind">
            Turn on
          </Button>
        </Form>
      )}
    </Card>
  );
}

/**
 * Identity verification (KYC). In this simulation product both levels are approved at
 * once: level 1 takes name, country and document number; level 2 an address.
 */
export function IdentityVerification() {
  const { user, loading, reload } = useAccount();
  const [error, setError] = useState<string | undefined>();
  if (loading) return null;
  if (!user) return <LoginFirst />;
  const submit = async (body: Record<string, unknown>) => {
    setError(undefined);
    try {
      await accountClient().api.post("v1/user/kyc/submit", body, { silent: true });
      await reload();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Card title="Identity verification" style={{ maxWidth: 560, margin: "32px auto" }}>
      <Steps
        current={user.identityLevel}
        items={[{ title: "Basic" }, { title: "Level 1" }, { title: "Level 2" }]}
      />
      {error && <Alert type="error" title={error} style={{ marginTop: 16 }} />}
      <div style={{ marginTop: 24 }} data-testid="kyc-level">
        {levelForm(user, submit)}
      </div>
    </Card>
  );
}

function levelForm(user: UserRecord, submit: (body: Record<string, unknown>) => Promise<void>) {
  if (user.identityLevel >= 2) return <Alert type="success" title="Verified (level 2)" />;
  if (user.identityLevel === 1) {
    return (
      <Form layout="vertical" onFinish={(v) => submit({ step: 2, ...v })}>
        <Form.Item label="Address" name="addressLine" rules={[{ required: true }, { min: 5 }]}>
          <Input />
        </Form.Item>
        <Form.Item label="City" name="city" rules={[{ required: true }]}>
          <Input />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          Submit level 2
        </Button>
      </Form>
    );
  }
  return (
    <Form layout="vertical" onFinish={(v) => submit({ step: 1, ...v })}>
      <Form.Item label="Given name" name="givenName" rules={[{ required: true }]}>
        <Input />
      </Form.Item>
      <Form.Item label="Family name" name="familyName" rules={[{ required: true }]}>
        <Input />
      </Form.Item>
      <Form.Item label="Country" name="country" rules={[{ required: true }]}>
        <Select
          showSearch
          options={["GB", "US", "DE", "FR", "ES", "PT", "IT", "JP", "VN", "ID", "PH", "AE"].map((c) => ({
            value: c,
            label: c,
          }))}
        />
      </Form.Item>
      <Form.Item
        label="Document number"
        name="documentNumber"
        rules={[{ required: true }, { pattern: /^[A-Za-z0-9-]{5,32}$/ }]}
      >
        <Input />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        Submit level 1
      </Button>
    </Form>
  );
}
