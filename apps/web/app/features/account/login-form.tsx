import { isApiError } from "@meridian/client";
import type { LoginAnswer, VerifyMethod } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Alert, Button, Card, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../api/account-client.ts";
import { passkeyAssertion, signInWithPasskey } from "../../api/passkey-client.ts";
import { errorText } from "../../api/use-account.ts";
import { accountCardStyle } from "../../ui/account-styles.ts";
import { QrLoginPanel } from "./qr-login-panel.tsx";
import { RECOVERY_CODE_PATTERN } from "./recovery-code.ts";
import { ThirdPartyButtons } from "./third-party.tsx";

export interface Challenge {
  verifyToken: string;
  methods: VerifyMethod[];
  sentTo?: string;
  fidoOptions?: unknown;
  /** The code is asked because this browser never logged in to the account. */
  newDevice?: boolean;
}

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

/** A login name that is a phone number (digits, spaces, dashes, an optional leading +), not an email. */
const PHONE_LIKE = /^\+?[\d\s-]{4,}$/;

/**
 * Email or phone + password, then the code or authenticator step when the account needs
 * one. `signUpHref` is the register page (carrying the same return path).
 */
export function LoginForm({
  locale,
  signUpHref,
  onDone,
  initialChallenge,
  returnTo,
}: {
  locale: string;
  signUpHref?: string;
  onDone: () => void;
  /** Where a third-party sign-in started here goes once it is done (`?redirect=`). */
  returnTo?: string | undefined;
  /** A second step asked by another first factor (a third-party sign-in). */
  initialChallenge?: Challenge;
}) {
  const { t } = useTranslation("account");
  const [challenge, setChallenge] = useState<Challenge | undefined>(initialChallenge);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  // A recovery code in place of the authenticator's, when the account still has some.
  const [useRecovery, setUseRecovery] = useState(false);
  // "Log in with the app": a QR code another logged-in device confirms.
  const [withQr, setWithQr] = useState(false);
  const [form] = Form.useForm();
  // the area code only matters for a phone number: asked for once the name looks like one
  const loginName: string = Form.useWatch("loginName", form) ?? "";
  const looksLikePhone = PHONE_LIKE.test(loginName.trim());

  // The answer's code in the page's language (the server's English text for codes without a translation).
  const failure = (err: unknown) =>
    isApiError(err) ? t(`errors.${err.code}`, { defaultValue: err.msg }) : errorText(err);

  const submitPassword = async (v: { loginName: string; areaCode?: string; pwd: string }) => {
    setBusy(true);
    setError(undefined);
    try {
      const data = await accountClient().api.post<LoginAnswer>("v1/user/login", v, { silent: true });
      if (data.verifyRequired) setChallenge(data);
      else {
        await accountClient().security.onLoginSuccess(data);
        onDone();
      }
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  };

  /** A login that ends in a session: `step` returns the answer whose user id binds the device key. */
  const finish = async (step: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await accountClient().security.onLoginSuccess(await step());
      onDone();
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  };

  // The factor typed as a code (authenticator, e-mail, SMS); a passkey is a button instead.
  const codeMethod = challenge?.methods.find((m) => m !== "passkey" && m !== "recovery");

  const submitCode = (v: { code: string }) =>
    finish(async () => {
      if (!challenge) return undefined;
      const method = useRecovery ? "recovery" : (codeMethod ?? "email");
      return accountClient().api.post(
        "v1/user/login/verify-login",
        { verifyToken: challenge.verifyToken, [CODE_FIELD[method]]: v.code.trim() },
        { silent: true },
      );
    });

  const verifyWithPasskey = () =>
    finish(async () => {
      if (!challenge) return undefined;
      const fidoVerifyCode = await passkeyAssertion(challenge.fidoOptions);
      return accountClient().api.post(
        "v1/user/login/verify-login-v2",
        { verifyToken: challenge.verifyToken, fidoVerifyCode },
        { silent: true },
      );
    });

  const prompt = useRecovery
    ? t("login.recoveryPrompt")
    : codeMethod === undefined
      ? t("passkeys.loginPrompt")
      : codeMethod === "google"
        ? t("login.authenticatorPrompt")
        : challenge?.sentTo
          ? t(challenge.newDevice === true ? "login.newDevicePrompt" : "login.codePrompt", {
              to: challenge.sentTo,
            })
          : t("login.codePromptAnonymous");

  return (
    <Card title={t("login.title")} style={accountCardStyle(420)}>
      {error && <Alert type="error" title={error} data-testid="login-error" style={{ marginBottom: 16 }} />}
      {withQr ? (
        <>
          <QrLoginPanel locale={locale} onDone={onDone} />
          <Button type="link" block onClick={() => setWithQr(false)} data-testid="login-with-password">
            {t("qr.usePassword")}
          </Button>
        </>
      ) : challenge === undefined ? (
        <Form form={form} layout="vertical" onFinish={submitPassword} data-testid="login-form">
          <Form.Item label={t("login.loginName")} name="loginName" rules={[{ required: true }, { min: 3 }]}>
            <Input autoComplete="username" data-testid="login-name" />
          </Form.Item>
          {looksLikePhone ? (
            <Form.Item
              label={t("login.areaCode")}
              name="areaCode"
              preserve={false}
              rules={[{ pattern: /^\+?\d{1,4}$/ }]}
            >
              <Input placeholder="44" inputMode="numeric" data-testid="login-area-code" />
            </Form.Item>
          ) : null}
          <Form.Item label={t("login.password")} name="pwd" rules={[{ required: true }]}>
            <Input.Password autoComplete="current-password" data-testid="login-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t("login.submit")}
          </Button>
          <Button
            block
            style={{ marginTop: 12 }}
            disabled={busy}
            onClick={() => void finish(signInWithPasskey)}
            data-testid="login-passkey"
          >
            {t("passkeys.signIn")}
          </Button>
          <Button
            block
            style={{ marginTop: 12 }}
            disabled={busy}
            onClick={() => setWithQr(true)}
            data-testid="login-qr"
          >
            {t("qr.open")}
          </Button>
          <ThirdPartyButtons locale={locale} returnTo={returnTo} />
          <p style={{ marginTop: 16, marginBottom: 0 }}>
            <a href={localizePath(locale, "/forgot-password")} data-testid="login-forgot">
              {t("login.forgot")}
            </a>
          </p>
          <p style={{ marginTop: 8, marginBottom: 0 }}>
            {t("login.noAccount")}{" "}
            <a href={signUpHref ?? localizePath(locale, "/register")}>{t("login.signUp")}</a>
          </p>
        </Form>
      ) : (
        <Form layout="vertical" onFinish={submitCode} data-testid="login-verify-form">
          <p>{prompt}</p>
          {challenge.methods.includes("passkey") && !useRecovery && (
            <Button
              type={codeMethod === undefined ? "primary" : "default"}
              block
              loading={busy}
              style={{ marginBottom: 16 }}
              onClick={() => void verifyWithPasskey()}
              data-testid="login-verify-passkey"
            >
              {t("passkeys.usePasskey")}
            </Button>
          )}
          {useRecovery ? (
            <Form.Item
              key="recovery"
              label={t("recovery.code")}
              name="code"
              rules={[{ required: true }, { pattern: RECOVERY_CODE_PATTERN, message: t("recovery.format") }]}
            >
              <Input autoComplete="off" dir="ltr" maxLength={13} data-testid="login-recovery-code" />
            </Form.Item>
          ) : codeMethod !== undefined ? (
            <Form.Item
              key="code"
              label={t("login.code")}
              name="code"
              rules={[{ required: true }, { pattern: /^\d{6}$/ }]}
            >
              <Input inputMode="numeric" maxLength={6} data-testid="login-code" />
            </Form.Item>
          ) : null}
          {(useRecovery || codeMethod !== undefined) && (
            <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-verify-submit">
              {t("login.verify")}
            </Button>
          )}
          {challenge.methods.includes("recovery") && (
            <Button
              type="link"
              block
              style={{ marginTop: 8 }}
              onClick={() => setUseRecovery(!useRecovery)}
              data-testid="login-recovery-switch"
            >
              {useRecovery ? t("recovery.useAuthenticator") : t("recovery.useRecovery")}
            </Button>
          )}
        </Form>
      )}
    </Card>
  );
}
