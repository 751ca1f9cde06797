import { QR_LOGIN_PATH, type QrRequestInfo, qrTokenSchema } from "@meridian/contracts";
import { Alert, Button, Card, Descriptions, Result, Space, Spin } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../api/account-client.ts";
import { useAccount } from "../../api/use-account.ts";
import { accountCardStyle } from "../../ui/account-styles.ts";
import { LoginFirst } from "./account-pages.tsx";
import { failureText, formatWhen } from "./security/security-shell.tsx";

/** The token from `#token=` (never sent to a server log) or, for links made elsewhere, `?token=`. */
function tokenOfLocation(): string | undefined {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, "")).get("token");
  const token = fromHash ?? new URLSearchParams(location.search).get("token");
  return token !== null && qrTokenSchema.safeParse(token).success ? token : undefined;
}

/**
 * `/qr-login`: a logged-in device opens a login page's QR code, sees which browser asked,
 * from where and when, and confirms or rejects the login.
 */
export function QrConfirmPage({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  const { user, loading } = useAccount();
  const [token, setToken] = useState<string | undefined>();
  const [read, setRead] = useState(false);
  useEffect(() => {
    setToken(tokenOfLocation());
    setRead(true);
  }, []);
  const card = accountCardStyle(520);
  if (loading || !read)
    return <Card title={t("qr.title")} loading style={card} data-testid="qr-confirm-loading" />;
  if (token === undefined)
    return <Result status="warning" title={t("qr.noToken")} style={card} data-testid="qr-confirm-no-token" />;
  if (user === undefined) return <LoginFirst locale={locale} path={`${QR_LOGIN_PATH}#token=${token}`} />;
  return (
    <Card title={t("qr.title")} style={card} data-testid="qr-confirm">
      <QrRequest token={token} locale={locale} />
    </Card>
  );
}

function QrRequest({ token, locale }: { token: string; locale: string }) {
  const { t } = useTranslation("account");
  const [info, setInfo] = useState<QrRequestInfo | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<"confirmed" | "rejected" | undefined>();

  useEffect(() => {
    accountClient()
      .api.post<QrRequestInfo>("v1/user/qrLogin/scan", { token }, { silent: true })
      .then(setInfo, (err: unknown) => setError(failureText(err, t)));
  }, [token, t]);

  const decide = async (verb: "confirm" | "reject") => {
    setBusy(true);
    setError(undefined);
    try {
      await accountClient().api.post(`v1/user/qrLogin/${verb}`, { token }, { silent: true });
      setOutcome(verb === "confirm" ? "confirmed" : "rejected");
    } catch (err) {
      setError(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };

  if (outcome !== undefined)
    return (
      <Result
        status={outcome === "confirmed" ? "success" : "info"}
        title={outcome === "confirmed" ? t("qr.confirmed") : t("qr.rejectedHere")}
        data-testid={`qr-confirm-${outcome}`}
      />
    );
  if (error !== undefined) return <Alert type="error" title={error} data-testid="qr-confirm-error" />;
  if (info === undefined)
    return (
      <div className="security-loading" aria-busy="true">
        <Spin />
      </div>
    );
  return (
    <>
      <p>{t("qr.intro")}</p>
      <Descriptions
        column={1}
        bordered
        size="small"
        style={{ marginBottom: 16 }}
        data-testid="qr-confirm-info"
      >
        <Descriptions.Item label={t("qr.browser")}>
          <span data-testid="qr-confirm-browser">{info.browser || t("devices.unknown")}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t("qr.system")}>{info.system || t("devices.unknown")}</Descriptions.Item>
        <Descriptions.Item label={t("qr.where")}>
          <bdi dir="ltr" data-testid="qr-confirm-ip">
            {info.ip}
          </bdi>{" "}
          ({info.sameNetwork ? t("qr.sameNetwork") : t("qr.otherNetwork")})
        </Descriptions.Item>
        <Descriptions.Item label={t("qr.when")}>{formatWhen(info.createdAt, locale)}</Descriptions.Item>
      </Descriptions>
      <Space wrap style={{ width: "100%", justifyContent: "flex-end" }}>
        <Button danger disabled={busy} onClick={() => void decide("reject")} data-testid="qr-confirm-reject">
          {t("qr.reject")}
        </Button>
        <Button
          type="primary"
          loading={busy}
          onClick={() => void decide("confirm")}
          data-testid="qr-confirm-accept"
        >
          {t("qr.confirm")}
        </Button>
      </Space>
    </>
  );
}
