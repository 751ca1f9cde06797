import type { GoogleSetup, RecoveryCodesIssued, UserRecord } from "@meridian/contracts";
import { getLocale, localizePath } from "@meridian/contracts/locales";
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  QRCode,
  Result,
  Select,
  Steps,
  Typography,
} from "antd";
import type { TFunction } from "i18next";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../api/account-client.ts";
import { errorText, useAccount } from "../../api/use-account.ts";
import { accountCardStyle } from "../../ui/account-styles.ts";
import { RecoveryCodesList, RecoveryCodesSection } from "./security/recovery-codes.tsx";

interface PageProps {
  locale: string;
}

/** The login page, coming back to `path` (without the language prefix) afterwards. */
function loginHref(locale: string, path: string): string {
  return `${localizePath(locale, "/login")}?redirect=${encodeURIComponent(localizePath(locale, path))}`;
}

export function LoginFirst({ locale, path }: { locale: string; path: string }) {
  const { t } = useTranslation("account");
  return (
    <Result
      status="info"
      title={t("loginFirst.title")}
      extra={<a href={loginHref(locale, path)}>{t("loginFirst.action")}</a>}
    />
  );
}

/** Account overview: the logged-in user record and logout. */
export function AccountOverview({ locale }: PageProps) {
  const { t } = useTranslation("account");
  const { user, loading } = useAccount();
  if (loading) return null;
  if (!user) return <LoginFirst locale={locale} path="/account/overview" />;
  const logout = async () => {
    await accountClient().logout();
    location.assign(localizePath(locale, "/"));
  };
  return (
    <Card
      title={t("overview.title")}
      style={accountCardStyle(720)}
      extra={
        <Button onClick={logout} data-testid="account-logout">
          {t("overview.logout")}
        </Button>
      }
    >
      <Descriptions column={1} bordered size="small" data-testid="account-overview">
        <Descriptions.Item label={t("overview.userId")}>{user.userId}</Descriptions.Item>
        <Descriptions.Item label={t("overview.loginName")}>{user.loginName}</Descriptions.Item>
        <Descriptions.Item label={t("overview.email")}>{user.email || "—"}</Descriptions.Item>
        <Descriptions.Item label={t("overview.phone")}>{user.phone || "—"}</Descriptions.Item>
        <Descriptions.Item label={t("overview.vipLevel")}>{user.vipLevel}</Descriptions.Item>
        <Descriptions.Item label={t("overview.identityLevel")}>{user.identityLevel}</Descriptions.Item>
        <Descriptions.Item label={t("overview.authenticator")}>
          {user.googleEnable ? t("overview.on") : t("overview.off")}
        </Descriptions.Item>
      </Descriptions>
      <p style={{ marginTop: 16 }}>
        <a href={localizePath(locale, "/account/security")}>{t("overview.security")}</a> ·{" "}
        <a href={localizePath(locale, "/account/identity")}>{t("overview.identity")}</a>
      </p>
    </Card>
  );
}

/**
 * Two-factor setup: otpauth URI and secret, then a code to bind. `embedded` (under the
 * security summary, which shows the login prompt itself) renders nothing when logged out.
 */
export function TwoFactorSetup({ locale, embedded = false }: PageProps & { embedded?: boolean }) {
  const { t } = useTranslation("account");
  const { user, loading, reload } = useAccount();
  const [setup, setSetup] = useState<GoogleSetup | undefined>();
  // The recovery codes the bind answered: shown until the page is left, never again.
  const [issued, setIssued] = useState<string[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  if (loading) return null;
  if (!user) return embedded ? null : <LoginFirst locale={locale} path="/account/security" />;
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
      const answer = await accountClient().api.post<RecoveryCodesIssued>("v1/user/google/bind", v, {
        silent: true,
      });
      setIssued(answer.recoveryCodes);
      setSetup(undefined);
      await reload();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Card title={t("security.title")} style={accountCardStyle(embedded ? 720 : 560)}>
      {error && <Alert type="error" title={error} style={{ marginBottom: 16 }} data-testid="tfa-error" />}
      {user.googleEnable ? (
        <>
          <Alert type="success" title={t("security.enabled")} data-testid="tfa-enabled" />
          {issued !== undefined && <RecoveryCodesList codes={issued} />}
          <RecoveryCodesSection user={user} />
        </>
      ) : setup === undefined ? (
        <Button type="primary" onClick={start} data-testid="tfa-start">
          {t("security.start")}
        </Button>
      ) : (
        <Form layout="vertical" onFinish={bind}>
          <p>{t("security.instructions")}</p>
          {/* the otpauth URI as authenticator apps scan it; white behind it in both themes, as scanners need */}
          <QRCode
            value={setup.otpauthUri}
            type="svg"
            size={176}
            color="#000000"
            bgColor="#ffffff"
            style={{ marginBottom: 16 }}
            data-testid="tfa-qr"
          />
          <Typography.Paragraph copyable code data-testid="tfa-uri">
            {setup.otpauthUri}
          </Typography.Paragraph>
          <Typography.Paragraph copyable code data-testid="tfa-secret">
            {setup.secret}
          </Typography.Paragraph>
          <Form.Item
            label={t("security.code")}
            name="googleCode"
            rules={[{ required: true }, { pattern: /^\d{6}$/ }]}
          >
            <Input inputMode="numeric" maxLength={6} data-testid="tfa-code" />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="tfa-bind">
            {t("security.bind")}
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
export function IdentityVerification({ locale }: PageProps) {
  const { t } = useTranslation("account");
  const { user, loading, reload } = useAccount();
  const [error, setError] = useState<string | undefined>();
  if (loading) return null;
  if (!user) return <LoginFirst locale={locale} path="/account/identity" />;
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
    <Card title={t("identity.title")} style={accountCardStyle(560)}>
      <Steps
        current={user.identityLevel}
        items={[
          { title: t("identity.stepBasic") },
          { title: t("identity.stepLevel1") },
          { title: t("identity.stepLevel2") },
        ]}
      />
      {error && <Alert type="error" title={error} style={{ marginTop: 16 }} />}
      <div style={{ marginTop: 24 }} data-testid="kyc-level">
        <LevelForm locale={locale} user={user} submit={submit} t={t} />
      </div>
    </Card>
  );
}

const COUNTRIES = ["GB", "US", "DE", "FR", "ES", "PT", "IT", "JP", "VN", "ID", "PH", "AE"];

/** Country names in the page language (the code itself where the runtime has no name). */
function useCountryOptions(locale: string): { value: string; label: string }[] {
  return useMemo(() => {
    const names = new Intl.DisplayNames([getLocale(locale).htmlLang, "en"], { type: "region" });
    return COUNTRIES.map((c) => ({ value: c, label: names.of(c) ?? c }));
  }, [locale]);
}

/** Typing a code ("PT") or part of a name ("portu") both find the country. */
function matchCountry(input: string, option?: { value: string; label: string }): boolean {
  const q = input.trim().toLowerCase();
  return option !== undefined && (option.value.toLowerCase() === q || option.label.toLowerCase().includes(q));
}

function LevelForm({
  locale,
  user,
  submit,
  t,
}: {
  locale: string;
  user: UserRecord;
  submit: (body: Record<string, unknown>) => Promise<void>;
  t: TFunction<"account">;
}) {
  const countries = useCountryOptions(locale);
  if (user.identityLevel >= 2) return <Alert type="success" title={t("identity.verified")} />;
  if (user.identityLevel === 1) {
    return (
      <Form layout="vertical" onFinish={(v) => submit({ step: 2, ...v })}>
        <Form.Item label={t("identity.address")} name="addressLine" rules={[{ required: true }, { min: 5 }]}>
          <Input />
        </Form.Item>
        <Form.Item label={t("identity.city")} name="city" rules={[{ required: true }]}>
          <Input />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t("identity.submitLevel2")}
        </Button>
      </Form>
    );
  }
  return (
    <Form layout="vertical" onFinish={(v) => submit({ step: 1, ...v })}>
      <Form.Item label={t("identity.givenName")} name="givenName" rules={[{ required: true }]}>
        <Input />
      </Form.Item>
      <Form.Item label={t("identity.familyName")} name="familyName" rules={[{ required: true }]}>
        <Input />
      </Form.Item>
      <Form.Item label={t("identity.country")} name="country" rules={[{ required: true }]}>
        <Select showSearch={{ filterOption: matchCountry }} options={countries} />
      </Form.Item>
      <Form.Item
        label={t("identity.documentNumber")}
        name="documentNumber"
        rules={[{ required: true }, { pattern: /^[A-Za-z0-9-]{5,32}$/ }]}
      >
        <Input />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        {t("identity.submitLevel1")}
      </Button>
    </Form>
  );
}
