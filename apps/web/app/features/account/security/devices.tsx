import type { DeviceDto, DevicesAnswer } from "@meridian/contracts";
import { Button, Tag } from "antd";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { useApiData } from "../../../lib/use-api-data.ts";
import { ListFrame, useListAction } from "../../../ui/list-frame.tsx";
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
  const load = useCallback(
    () => accountClient().api.get<DevicesAnswer>("v1/user/security/devices", undefined, { silent: true }),
    [],
  );
  const list = useApiData(load);
  const action = useListAction(list.reload, (err) => failureText(err, t));
  const revoke = (api: string, body?: { deviceId: string }) =>
    action.run(async () => {
      const { revoked } = await accountClient().api.post<{ revoked: number }>(api, body ?? {}, {
        silent: true,
      });
      return t("devices.revoked", { count: revoked });
    });
  const devices = list.data?.devices;
  const others = (devices ?? []).reduce((n, d) => n + d.sessions - (d.current ? 1 : 0), 0);
  return (
    <>
      <p>{t("devices.intro")}</p>
      <ListFrame
        read={list}
        items={devices}
        itemKey={(d) => d.deviceId}
        itemProps={(d) => ({ "data-testid": "device-row", "data-current": d.current })}
        empty={t("devices.none")}
        notice={action.notice}
        error={action.error}
        testId="devices"
        renderItem={(d: DeviceDto) => (
          <>
            <div>
              <div>
                <strong>{[d.browser, d.os].filter(Boolean).join(" · ") || t("devices.unknown")}</strong>{" "}
                {d.current && <Tag color="gold">{t("devices.current")}</Tag>}
              </div>
              <div className="security-device-meta">
                {t("devices.ip")}: <bdi>{d.ip || "—"}</bdi> · {t("devices.firstSeen")}:{" "}
                {formatWhen(d.firstSeen, locale)} · {t("devices.lastSeen")}: {formatWhen(d.lastSeen, locale)}{" "}
                · {t("devices.sessions", { count: d.sessions })}
              </div>
              {d.verifiedBy !== null && (
                <div className="security-device-meta" data-testid="device-verified-by">
                  {t("devices.verifiedBy", { how: t(`history.proofs.${d.verifiedBy}`) })}
                </div>
              )}
            </div>
            {d.sessions > (d.current ? 1 : 0) && (
              <Button
                danger
                size="small"
                disabled={action.busy}
                onClick={() => void revoke("v1/user/security/devices/revoke", { deviceId: d.deviceId })}
                data-testid="device-revoke"
              >
                {t("devices.revoke")}
              </Button>
            )}
          </>
        )}
      />
      {devices !== undefined && (
        <Button
          danger
          style={{ marginTop: 16 }}
          disabled={others === 0 || action.busy}
          onClick={() => void revoke("v1/user/security/devices/revokeOthers")}
          data-testid="devices-revoke-others"
        >
          {t("devices.revokeOthers")}
        </Button>
      )}
    </>
  );
}
