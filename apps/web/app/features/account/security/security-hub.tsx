import type { UserRecord } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Alert, Button, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { withStepUp } from "../../../api/passkey-client.ts";
import { NewPasswordFields } from "../new-password-fields.tsx";
import { PasskeysSection } from "./passkeys.tsx";
import { SecondFactorItem } from "./recovery-codes.tsx";
import { failureText, SecurityPage } from "./security-shell.tsx";
import { ThirdPartySection } from "./third-party.tsx";

/** `/account/security`: where each protection stands, with links to change it, and the password change. */
export function SecurityHub({ locale }: { locale: string }) {
  return (
    <SecurityPage locale={locale} page="security" maxWidth={720}>
      {(user) => (
        <>
          <SecuritySummary locale={locale} user={user} />
          <PasskeysSection locale={locale} />
          <ThirdPartySection locale={locale} />
          <PasswordChange user={user} />
        </>
      )}
    </SecurityPage>
  );
}

function SecuritySummary({ locale, user }: { locale: string; user: UserRecord }) {
  const { t } = useTranslation("account");
  const link = (path: string, text: string, testId: string) => (
    <a href={localizePath(locale, path)} data-testid={testId}>
      {text}
    </a>
  );
  return (
    <ul className="security-items" data-testid="security-summary">
      <li>
        <span>
          {t("verification.email")}: <bdi>{user.bindEmail ? user.email : t("settings.notBound")}</bdi>
        </span>
        {link(
          "/modifyverification",
          user.bindEmail ? t("settings.change") : t("settings.bind"),
          "summary-email",
        )}
      </li>
      <li>
        <span>
          {t("verification.phone")}: <bdi>{user.bindPhone ? user.phone : t("settings.notBound")}</bdi>
        </span>
        {link(
          "/modifyverification",
          user.bindPhone ? t("settings.change") : t("settings.bind"),
          "summary-phone",
        )}
      </li>
      <li>
        <span>
          {t("verification.google")}: {user.googleEnable ? t("overview.on") : t("overview.off")}
        </span>
        {link("/modifyverification", t("settings.manage"), "summary-google")}
      </li>
      <li>
        <span data-testid="summary-anti-phishing">
          {t("settings.pages.antiPhishing")}:{" "}
          {user.antiPhishingCode === "" ? t("antiPhishing.notSet") : <strong>{user.antiPhishingCode}</strong>}
        </span>
        {link("/subaccount/setting/antiphishing", t("settings.manage"), "summary-anti-phishing-link")}
      </li>
    </ul>
  );
}

interface PasswordValues {
  oldPwd: string;
  pwd: string;
  pwdAgain: string;
  googleCode?: string;
  recoveryCode?: string;
}

function PasswordChange({ user }: { user: UserRecord }) {
  const { t } = useTranslation("account");
  const [form] = Form.useForm<PasswordValues>();
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async ({ pwdAgain: _, ...v }: PasswordValues) => {
    setBusy(true);
    setError(undefined);
    try {
      const { revoked } = await withStepUp(() =>
        accountClient().api.post<{ revoked: number }>("v1/user/security/password/change", v, {
          silent: true,
        }),
      );
      setDone(revoked);
      form.resetFields();
    } catch (err) {
      setError(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section style={{ marginTop: 24 }} aria-labelledby="password-change-title">
      <h3 id="password-change-title">{t("password.title")}</h3>
      {done !== undefined && (
        <Alert type="success" title={t("password.changed", { count: done })} data-testid="password-changed" />
      )}
      {error && <Alert type="error" title={error} data-testid="password-error" />}
      <Form form={form} layout="vertical" onFinish={submit} style={{ marginTop: 12 }}>
        <Form.Item label={t("password.current")} name="oldPwd" rules={[{ required: true }]}>
          <Input.Password autoComplete="current-password" data-testid="password-current" />
        </Form.Item>
        <NewPasswordFields
          label={t("password.new")}
          confirmName="pwdAgain"
          testId="password-new"
          confirmTestId="password-again"
        />
        {user.googleEnable && <SecondFactorItem testId="password-google" />}
        <Button type="primary" htmlType="submit" loading={busy} data-testid="password-submit">
          {t("password.submit")}
        </Button>
      </Form>
    </section>
  );
}
