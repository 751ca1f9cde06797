import type { DeviceDto, DevicesAnswer } from "@meridian/contracts";
import { Alert, Button, Empty, Spin, Tag } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../account-client.ts";
import { failureText, formatWhen, SecurityPage } from "./security-shell.tsx";

/** `/subaccount/setting/devices`: every browser the account logged in from, with its live sessions. */
export function DevicesPage({ locale }: { locale: string }) {
  return (
    <SecurityPage locale={locale} page="devices">
      {() => <DeviceList locale={locale} />}
    </SecurityPage>
  );
}

function DeviceList({ locale }: { locale: string }) {
  const { t } = useTranslation("account");
  const [devices, setDevices] = useState<DeviceDto[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const load = useCallback(async () => {
    try {
      const answer = await accountClient().api.get<DevicesAnswer>("v1/user/security/devices", undefined, {
        silent: true,
      });
      setDevices(answer.devices);
    } catch (err) {
      setError(failureText(err, t));
    }
  }, [t]);
  useEffect(() => {
    void load();
  }, [load]);
  const revoke = async (api: string, body?: { deviceId: string }) => {
    setError(undefined);
    try {
      const { revoked } = await accountClient().api.post<{ revoked: number }>(api, body ?? {}, {
        silent: true,
      });
      setNotice(t("devices.revoked", { count: revoked }));
      await load();
    } catch (err) {
      setError(failureText(err, t));
    }
  };
  if (devices === undefined)
    return error ? (
      <Alert type="error" title={error} />
    ) : (
      // The list loads after paint: a spinner, not a blank card, until it answers.
      <div className="security-loading" aria-busy="true" data-testid="devices-loading">
        <Spin />
      </div>
    );
  const others = devices.reduce((n, d) => n + d.sessions - (d.current ? 1 : 0), 0);
  return (
    <>
      <p>{t("devices.intro")}</p>
      {error && <Alert type="error" title={error} style={{ marginBottom: 12 }} />}
      {notice && (
        <Alert type="success" title={notice} style={{ marginBottom: 12 }} data-testid="devices-notice" />
      )}
      {devices.length === 0 ? (
        <Empty description={t("devices.none")} />
      ) : (
        <div data-testid="devices-list">
          {devices.map((d) => (
            <div
              className="security-device"
              key={d.deviceId}
              data-testid="device-row"
              data-current={d.current}
            >
              <div>
                <div>
                  <strong>{[d.browser, d.os].filter(Boolean).join(" · ") || t("devices.unknown")}</strong>{" "}
                  {d.current && <Tag color="gold">{t("devices.current")}</Tag>}
                </div>
                <div className="security-device-meta">
                  {t("devices.ip")}: <bdi>{d.ip || "—"}</bdi> · {t("devices.firstSeen")}:{" "}
                  {formatWhen(d.firstSeen, locale)} · {t("devices.lastSeen")}:{" "}
                  {formatWhen(d.lastSeen, locale)} · {t("devices.sessions", { count: d.sessions })}
                </div>
              </div>
              {d.sessions > (d.current ? 1 : 0) && (
                <Button
                  danger
                  size="small"
                  onClick={() => revoke("v1/user/security/devices/revoke", { deviceId: d.deviceId })}
                  data-testid="device-revoke"
                >
                  {t("devices.revoke")}
                </Button>
              )}
            </div>
          ))}
        </div>
      )}
      <Button
        danger
        style={{ marginTop: 16 }}
        disabled={others === 0}
        onClick={() => revoke("v1/user/security/devices/revokeOthers")}
        data-testid="devices-revoke-others"
      >
        {t("devices.revokeOthers")}
      </Button>
    </>
  );
}
