import type { UserRecord } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Alert, Button, Form, Input, Tabs } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { withStepUp } from "../../../api/passkey-client.ts";
import { SecondFactorItem } from "./recovery-codes.tsx";
import { failureText, SecurityPage } from "./security-shell.tsx";
import { SendCodeInput } from "./send-code.tsx";

const CODE_RULES = [{ required: true }, { pattern: /^\d{6}$/ }];

/** `/modifyverification`: change or bind the e-mail and phone, unbind (then re-bind) the authenticator. */
export function ModifyVerificationPage({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  return (
    <SecurityPage locale={locale} page="verification" maxWidth={640}>
      {(user, reload) => (
        <Tabs
          items={[
            {
              key: "email",
              label: t("verification.email"),
              children: <ContactForm kind="email" user={user} reload={reload} />,
            },
            {
              key: "phone",
              label: t("verification.phone"),
              children: <ContactForm kind="phone" user={user} reload={reload} />,
            },
            {
              key: "google",
              label: t("verification.google"),
              children: <GoogleForm locale={locale} user={user} reload={reload} />,
            },
          ]}
        />
      )}
    </SecurityPage>
  );
}

interface ContactValues {
  email?: string;
  areaCode?: string;
  mobile?: string;
  oldCode: string;
  newCode: string;
  googleCode?: string;
  recoveryCode?: string;
}

/** Change (or bind) the e-mail or the phone: a code to the current contact and one to the new. */
function ContactForm({
  kind,
  user,
  reload,
}: {
  kind: "email" | "phone";
  user: UserRecord;
  reload: () => Promise<void>;
}) {
  const { t } = useTranslation("account");
  const [form] = Form.useForm<ContactValues>();
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const bound = kind === "email" ? user.bindEmail : user.bindPhone;
  const current = kind === "email" ? user.email : user.phone;
  const purpose = kind === "email" ? "changeEmail" : "changePhone";
  const onError = (err: unknown) => setError(failureText(err, t));
  const newTarget = () => {
    const v = form.getFieldsValue();
    if (kind === "email") return v.email ? { purpose, to: "new", email: v.email } : undefined;
    return v.areaCode && v.mobile
      ? { purpose, to: "new", areaCode: v.areaCode, mobile: v.mobile }
      : undefined;
  };
  const submit = async (v: ContactValues) => {
    setBusy(true);
    setError(undefined);
    try {
      await withStepUp(() =>
        accountClient().api.post(`v1/user/security/${kind}/change`, v, { silent: true }),
      );
      setDone(true);
      form.resetFields();
      await reload();
    } catch (err) {
      onError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p data-testid={`verification-${kind}-current`}>
        {bound ? t(`verification.${kind}Bound`, { value: current }) : t(`verification.${kind}NotBound`)}
      </p>
      {done && (
        <Alert type="success" title={t("verification.saved")} data-testid={`verification-${kind}-saved`} />
      )}
      {error && <Alert type="error" title={error} data-testid={`verification-${kind}-error`} />}
      <Form form={form} layout="vertical" onFinish={submit} style={{ marginTop: 16 }}>
        {kind === "email" ? (
          <Form.Item
            label={t("verification.newEmail")}
            name="email"
            rules={[{ required: true }, { type: "email" }]}
          >
            <Input autoComplete="email" data-testid="verification-new-email" />
          </Form.Item>
        ) : (
          <>
            <Form.Item
              label={t("register.areaCode")}
              name="areaCode"
              rules={[{ required: true }, { pattern: /^\+?\d{1,4}$/ }]}
            >
              <Input inputMode="numeric" placeholder="44" data-testid="verification-area-code" />
            </Form.Item>
            <Form.Item
              label={t("verification.newPhone")}
              name="mobile"
              rules={[{ required: true }, { pattern: /^\d{4,15}$/ }]}
            >
              <Input inputMode="tel" data-testid="verification-new-phone" />
            </Form.Item>
          </>
        )}
        <Form.Item label={t("settings.verifyCurrent")} name="oldCode" rules={CODE_RULES}>
          <SendCodeInput
            api="v1/user/security/sendCode"
            body={() => ({ purpose, to: "current" })}
            onError={onError}
            testId={`verification-${kind}-old`}
          />
        </Form.Item>
        <Form.Item label={t("verification.verifyNew")} name="newCode" rules={CODE_RULES}>
          <SendCodeInput
            api="v1/user/security/sendCode"
            body={newTarget}
            onError={onError}
            testId={`verification-${kind}-new`}
          />
        </Form.Item>
        {user.googleEnable && <SecondFactorItem testId={`verification-${kind}-google`} />}
        <Button type="primary" htmlType="submit" loading={busy} data-testid={`verification-${kind}-submit`}>
          {bound ? t(`verification.change`) : t(`verification.bind`)}
        </Button>
      </Form>
    </>
  );
}

/** Unbind the authenticator (its code and a code to the current contact); binding happens on the security page. */
function GoogleForm({
  locale,
  user,
  reload,
}: {
  locale: string;
  user: UserRecord;
  reload: () => Promise<void>;
}) {
  const { t } = useTranslation("account");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const bindHref = localizePath(locale, "/account/security");
  if (!user.bindGoogle) {
    return (
      <>
        <p data-testid="verification-google-current">{t("verification.googleNotBound")}</p>
        <Button type="primary" href={bindHref} data-testid="verification-google-bind">
          {t("verification.googleBind")}
        </Button>
      </>
    );
  }
  const submit = async (v: { verifyCode: string; googleCode?: string; recoveryCode?: string }) => {
    setBusy(true);
    setError(undefined);
    try {
      await accountClient().api.post("v1/user/google/unbind", v, { silent: true });
      await reload();
    } catch (err) {
      setError(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p data-testid="verification-google-current">{t("verification.googleBound")}</p>
      {error && <Alert type="error" title={error} data-testid="verification-google-error" />}
      <Form layout="vertical" onFinish={submit} style={{ marginTop: 16 }}>
        <Form.Item label={t("settings.verifyCurrent")} name="verifyCode" rules={CODE_RULES}>
          <SendCodeInput
            api="v1/user/security/sendCode"
            body={() => ({ purpose: "unbindGoogle" })}
            onError={(err) => setError(failureText(err, t))}
            testId="verification-google-verify"
          />
        </Form.Item>
        <SecondFactorItem testId="verification-google-code" />
        <Button danger htmlType="submit" loading={busy} data-testid="verification-google-unbind">
          {t("verification.googleUnbind")}
        </Button>
      </Form>
    </>
  );
}
