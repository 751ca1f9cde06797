import { ANTI_PHISHING_PATTERN, type UserRecord } from "@meridian/contracts";
import { Alert, Button, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { withStepUp } from "../../../api/passkey-client.ts";
import { SecondFactorItem } from "./recovery-codes.tsx";
import { failureText, SecurityPage } from "./security-shell.tsx";
import { SendCodeInput } from "./send-code.tsx";

/** `/subaccount/setting/antiphishing`: the code every genuine e-mail starts with. */
export function AntiPhishingPage({ locale }: { locale: string }) {
  return (
    <SecurityPage locale={locale} page="antiPhishing" maxWidth={560}>
      {(user, reload) => <AntiPhishingForm user={user} reload={reload} />}
    </SecurityPage>
  );
}

function AntiPhishingForm({ user, reload }: { user: UserRecord; reload: () => Promise<void> }) {
  const { t } = useTranslation("account");
  const [error, setError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm();
  const submit = async (v: {
    antiPhishingCode: string;
    verifyCode: string;
    googleCode?: string;
    recoveryCode?: string;
  }) => {
    setBusy(true);
    setError(undefined);
    try {
      await withStepUp(() => accountClient().api.post("v1/user/security/antiPhishing", v, { silent: true }));
      setSaved(true);
      form.resetFields();
      await reload();
    } catch (err) {
      setError(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p>{t("antiPhishing.intro")}</p>
      <p data-testid="anti-phishing-current">
        {user.antiPhishingCode === "" ? (
          t("antiPhishing.notSet")
        ) : (
          <>
            {t("antiPhishing.current")} <strong>{user.antiPhishingCode}</strong>
          </>
        )}
      </p>
      {saved && <Alert type="success" title={t("antiPhishing.saved")} data-testid="anti-phishing-saved" />}
      {error && <Alert type="error" title={error} data-testid="anti-phishing-error" />}
      <Form form={form} layout="vertical" onFinish={submit} style={{ marginTop: 16 }}>
        <Form.Item
          label={user.antiPhishingCode === "" ? t("antiPhishing.new") : t("antiPhishing.change")}
          name="antiPhishingCode"
          extra={t("antiPhishing.rule")}
          rules={[
            { required: true, message: t("antiPhishing.rule") },
            { pattern: ANTI_PHISHING_PATTERN, message: t("antiPhishing.rule") },
          ]}
        >
          <Input maxLength={20} autoComplete="off" data-testid="anti-phishing-code" />
        </Form.Item>
        <Form.Item
          label={t("settings.verifyCurrent")}
          name="verifyCode"
          rules={[{ required: true }, { pattern: /^\d{6}$/ }]}
        >
          <SendCodeInput
            api="v1/user/security/sendCode"
            body={() => ({ purpose: "antiPhishing" })}
            onError={(err) => setError(failureText(err, t))}
            testId="anti-phishing-verify"
          />
        </Form.Item>
        {user.googleEnable && <SecondFactorItem testId="anti-phishing-google" />}
        <Button type="primary" htmlType="submit" loading={busy} data-testid="anti-phishing-submit">
          {t("settings.save")}
        </Button>
      </Form>
    </>
  );
}
