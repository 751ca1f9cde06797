import { isApiError } from "@meridian/client";
import {
  QR_LOGIN_PATH,
  QR_POLL_MS,
  type QrKeyIssued,
  type QrKeyStatus,
  type QrStatus,
} from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Alert, Button, QRCode } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../api/account-client.ts";

/**
 * "Log in with the app": a QR code of a single-use token, polled until a logged-in device
 * confirms it (then this browser is logged in), rejects it or it expires (2 minutes).
 */
export function QrLoginPanel({ locale, onDone }: { locale: string; onDone: () => void }) {
  const { t } = useTranslation("account");
  const [issued, setIssued] = useState<QrKeyIssued | undefined>();
  const [status, setStatus] = useState<QrStatus>("waiting");
  const [error, setError] = useState<string | undefined>();

  const renew = useCallback(async () => {
    setError(undefined);
    setStatus("waiting");
    try {
      setIssued(await accountClient().api.post<QrKeyIssued>("v1/user/public/getQrKey", {}, { silent: true }));
    } catch (err) {
      setError(isApiError(err) ? t(`errors.${err.code}`, { defaultValue: err.msg }) : String(err));
    }
  }, [t]);

  useEffect(() => {
    void renew();
  }, [renew]);

  // One poll at a time (each is encrypted and proves a device key: the one that confirms is bound).
  useEffect(() => {
    if (issued === undefined) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const data = await accountClient().api.post<QrKeyStatus>(
          "v1/user/public/getQrKeyStatus",
          { token: issued.token },
          { silent: true },
        );
        if (stopped) return;
        setStatus(data.status);
        if (data.status === "confirmed") {
          await accountClient().security.onLoginSuccess(data);
          onDone();
          return;
        }
        if (data.status === "rejected" || data.status === "expired") return;
      } catch (err) {
        if (stopped) return;
        setError(isApiError(err) ? t(`errors.${err.code}`, { defaultValue: err.msg }) : String(err));
        return;
      }
      timer = setTimeout(() => void poll(), QR_POLL_MS);
    };
    timer = setTimeout(() => void poll(), QR_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [issued, onDone, t]);

  const link =
    issued === undefined
      ? undefined
      : `${location.origin}${localizePath(locale, QR_LOGIN_PATH)}#token=${issued.token}`;
  const ended = status === "rejected" || status === "expired" || error !== undefined;
  const message =
    status === "scanned"
      ? t("qr.scanned")
      : status === "rejected"
        ? t("qr.rejected")
        : status === "expired"
          ? t("qr.expired")
          : t("qr.scan");
  return (
    <div data-testid="qr-login" data-status={status} data-link={link} style={{ textAlign: "center" }}>
      {error && (
        <Alert type="error" title={error} data-testid="qr-login-error" style={{ marginBottom: 16 }} />
      )}
      {/* white behind the code in both themes, as scanners need */}
      <QRCode
        value={link ?? "-"}
        status={
          link === undefined ? "loading" : ended ? "expired" : status === "scanned" ? "scanned" : "active"
        }
        onRefresh={() => void renew()}
        type="svg"
        size={196}
        color="#000000"
        bgColor="#ffffff"
        style={{ margin: "0 auto 16px" }}
        data-testid="qr-login-code"
      />
      <p data-testid="qr-login-message" aria-live="polite">
        {message}
      </p>
      {ended && (
        <Button onClick={() => void renew()} data-testid="qr-login-renew">
          {t("qr.renew")}
        </Button>
      )}
    </div>
  );
}
