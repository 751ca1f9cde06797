import type { LoginAnswer, ThirdProviders, ThirdTicket } from "@meridian/contracts";
import { TELEGRAM_PROVIDER, THIRD_CALLBACK_PATH } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Alert, Button, Card, Divider, Form, Input, Space, Spin } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../api/account-client.ts";
import { errorText } from "../../api/use-account.ts";
import { useApiData } from "../../lib/use-api-data.ts";
import { accountCardStyle } from "../../ui/account-styles.ts";
import { type Challenge, LoginForm } from "./login-form.tsx";
import { safeReturnPath } from "./return-url.ts";
import { failureText } from "./security/security-shell.tsx";

/** The language of the page a sign-in started from (the callback page comes back in it). */
const LOCALE_KEY = "meridian.thirdLocale";
/** Where the page a sign-in started from sends the browser after it (its `?redirect=`). */
const RETURN_KEY = "meridian.thirdReturn";

const loadProviders = () =>
  accountClient().api.get<ThirdProviders>("v1/user/public/third/providers", undefined, { silent: true });

/**
 * "Continue with ..." for each configured OpenID provider, and Telegram's Login Widget when
 * a bot is configured: nothing at all when none is. The widget sends the browser to
 * `/third-login/telegram` with the signed data (its redirect mode: no script of ours runs
 * in Telegram's frame).
 */
export function ThirdPartyButtons({ locale, returnTo }: { locale: string; returnTo?: string | undefined }) {
  const { t } = useTranslation("account");
  const providers = useApiData(loadProviders);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState<string | undefined>();
  const widget = useRef<HTMLDivElement>(null);
  const botName = providers.data?.telegram?.botName;

  useEffect(() => {
    const host = widget.current;
    if (botName === undefined || host === null) return;
    const script = document.createElement("script");
    script.async = true;
    script.src = "https://telegram.org/js/telegram-widget.js?22";
    script.dataset.telegramLogin = botName;
    script.dataset.size = "large";
    script.dataset.authUrl = `${location.origin}${localizePath(locale, `${THIRD_CALLBACK_PATH}/${TELEGRAM_PROVIDER}`)}`;
    host.replaceChildren(script);
    return () => host.replaceChildren();
  }, [botName, locale]);

  // Kept for the callback page: Telegram's widget leaves from its own frame, so at once.
  useEffect(() => {
    if (returnTo === undefined) sessionStorage.removeItem(RETURN_KEY);
    else sessionStorage.setItem(RETURN_KEY, returnTo);
  }, [returnTo]);

  const oidc = providers.data?.oidc ?? [];
  if (oidc.length === 0 && botName === undefined) return null;

  const start = async (provider: string) => {
    setBusy(provider);
    setError(undefined);
    try {
      const { authorizationUrl } = await accountClient().api.post<{ authorizationUrl: string }>(
        "v1/user/public/third/oidc/start",
        { provider },
        { silent: true },
      );
      // The provider sends the browser back to one registered address (no language prefix):
      // the callback page moves to this page's language.
      sessionStorage.setItem(LOCALE_KEY, locale);
      location.assign(authorizationUrl);
    } catch (err) {
      setError(errorText(err));
      setBusy(undefined);
    }
  };

  return (
    <div data-testid="third-party">
      <Divider plain>{t("third.or")}</Divider>
      {error && <Alert type="error" title={error} style={{ marginBottom: 12 }} />}
      <Space orientation="vertical" style={{ width: "100%" }}>
        {oidc.map((p) => (
          <Button
            key={p.id}
            block
            loading={busy === p.id}
            disabled={busy !== undefined}
            onClick={() => void start(p.id)}
            data-testid={`third-${p.id}`}
          >
            {t("third.continueWith", { name: p.name })}
          </Button>
        ))}
        {botName !== undefined && (
          <div
            ref={widget}
            data-testid="third-telegram"
            title={t("third.telegram")}
            style={{ display: "flex", justifyContent: "center", minHeight: 40 }}
          />
        )}
      </Space>
    </div>
  );
}

/** The Telegram fields the widget signs (and sends back as query parameters). */
const TELEGRAM_FIELDS = ["id", "first_name", "last_name", "username", "photo_url", "auth_date", "hash"];

type Step =
  | { kind: "working" }
  | { kind: "failed"; error: string }
  | { kind: "challenge"; challenge: Challenge }
  | { kind: "ticket"; ticket: ThirdTicket };

type ThirdAnswer = LoginAnswer | ThirdTicket;

/**
 * `/third-login/<provider>`: where a provider sends the browser back. The callback's query
 * (an OpenID code and state, or Telegram's signed data) goes to the server once and leaves
 * the address bar; then a session, the account's second step, or for a new identity the
 * choice to create an account or link one with its password.
 */
export function ThirdLoginPage({ locale, provider }: { locale: string; provider: string }) {
  const { t } = useTranslation("account");
  const [step, setStep] = useState<Step>({ kind: "working" });
  const [busy, setBusy] = useState(false);
  const [linkError, setLinkError] = useState<string | undefined>();
  const sent = useRef(false);
  const done = useCallback(() => {
    const returnTo = safeReturnPath(sessionStorage.getItem(RETURN_KEY));
    sessionStorage.removeItem(RETURN_KEY);
    location.assign(returnTo ?? localizePath(locale, "/account/overview"));
  }, [locale]);

  const settle = useCallback(
    async (answer: ThirdAnswer) => {
      if ("bindRequired" in answer && answer.bindRequired) setStep({ kind: "ticket", ticket: answer });
      else if ("verifyRequired" in answer && answer.verifyRequired)
        setStep({ kind: "challenge", challenge: answer });
      else {
        await accountClient().security.onLoginSuccess(answer);
        done();
      }
    },
    [done],
  );

  useEffect(() => {
    // One callback, one try: the state (or Telegram data) is spent by the first.
    if (sent.current) return;
    sent.current = true;
    const query = location.search;
    const started = sessionStorage.getItem(LOCALE_KEY);
    sessionStorage.removeItem(LOCALE_KEY);
    if (started !== null && started !== locale && /^[A-Za-z-]{2,5}$/.test(started)) {
      location.replace(`${localizePath(started, `${THIRD_CALLBACK_PATH}/${provider}`)}${query}`);
      return;
    }
    history.replaceState(history.state, "", location.pathname);
    const params = new URLSearchParams(query);
    const call =
      provider === TELEGRAM_PROVIDER
        ? accountClient().api.post<ThirdAnswer>(
            "v1/user/public/third/telegram/login",
            Object.fromEntries(TELEGRAM_FIELDS.flatMap((k) => (params.has(k) ? [[k, params.get(k)]] : []))),
            { silent: true },
          )
        : accountClient().api.post<ThirdAnswer>(
            "v1/user/public/third/oidc/login",
            { provider, callback: query },
            { silent: true },
          );
    call.then(settle).catch((err: unknown) => setStep({ kind: "failed", error: failureText(err, t) }));
  }, [provider, settle, t, locale]);

  /** Creating or linking: a refusal is said above the form, which stays for another try. */
  const run = async (call: () => Promise<ThirdAnswer>) => {
    setBusy(true);
    setLinkError(undefined);
    try {
      await settle(await call());
    } catch (err) {
      setLinkError(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };

  if (step.kind === "challenge")
    return <LoginForm locale={locale} onDone={done} initialChallenge={step.challenge} />;

  return (
    <Card title={t("third.title")} style={accountCardStyle(460)} data-testid="third-login">
      {step.kind === "working" && (
        <div style={{ textAlign: "center" }} data-testid="third-working">
          <Spin />
          <p>{t("third.working")}</p>
        </div>
      )}
      {step.kind === "failed" && (
        <>
          <Alert type="error" title={step.error} data-testid="third-error" style={{ marginBottom: 16 }} />
          <a href={localizePath(locale, "/login")}>{t("third.again")}</a>
        </>
      )}
      {step.kind === "ticket" && (
        <div data-testid="third-ticket">
          <p data-testid="third-ticket-intro">{t("third.newIntro", { display: step.ticket.display })}</p>
          {linkError && (
            <Alert
              type="error"
              title={linkError}
              data-testid="third-link-error"
              style={{ marginBottom: 12 }}
            />
          )}
          <Button
            type="primary"
            block
            loading={busy}
            onClick={() =>
              void run(() =>
                accountClient().api.post<ThirdAnswer>(
                  "v1/user/public/third/register",
                  { token: step.ticket.token },
                  { silent: true },
                ),
              )
            }
            data-testid="third-create"
          >
            {t("third.create")}
          </Button>
          <Divider plain>{t("third.linkTitle")}</Divider>
          <Form
            layout="vertical"
            onFinish={(v: { loginName: string; pwd: string }) =>
              void run(() =>
                accountClient().api.post<ThirdAnswer>(
                  "v1/user/public/third/bind",
                  { token: step.ticket.token, loginName: v.loginName.trim(), pwd: v.pwd },
                  { silent: true },
                ),
              )
            }
            data-testid="third-link-form"
          >
            <Form.Item label={t("login.loginName")} name="loginName" rules={[{ required: true }, { min: 3 }]}>
              <Input autoComplete="username" data-testid="third-link-name" />
            </Form.Item>
            <Form.Item label={t("login.password")} name="pwd" rules={[{ required: true }]}>
              <Input.Password autoComplete="current-password" data-testid="third-link-password" />
            </Form.Item>
            <Button htmlType="submit" block loading={busy} data-testid="third-link-submit">
              {t("third.link")}
            </Button>
          </Form>
        </div>
      )}
    </Card>
  );
}
