import { localizePath } from "@meridian/contracts/locales";
import { Button, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { deferredApi } from "../../api/deferred-api.ts";

/**
 * The futures risk agreement, shown once: the first time a logged-in user opens futures
 * (the user record's `openContract` is false). Agreeing sets the flag on the server;
 * declining goes back to spot, so the screen is not used before it is accepted.
 */
export function FuturesRiskAgreement({ locale, loggedIn }: { locale: string; loggedIn: boolean }) {
  const { t } = useTranslation("futures");
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    void import("../../api/account-client.ts")
      .then(({ accountClient }) => accountClient().loadSession())
      .then((user) => live && setOpen(user !== undefined && !user.openContract));
    return () => {
      live = false;
    };
  }, [loggedIn]);
  const agree = async () => {
    setBusy(true);
    try {
      await deferredApi.post("v1/user/agreement/contract", {});
      setOpen(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t("agreement.title")}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      data-testid="futures-agreement"
      footer={[
        <Button
          key="decline"
          href={localizePath(locale, "/spot/BTCUSDT")}
          data-testid="futures-agreement-decline"
        >
          {t("agreement.decline")}
        </Button>,
        <Button
          key="agree"
          type="primary"
          loading={busy}
          onClick={agree}
          data-testid="futures-agreement-accept"
        >
          {t("agreement.accept")}
        </Button>,
      ]}
    >
      <div data-testid="futures-agreement-body">
        <p>{t("agreement.p1")}</p>
        <p>{t("agreement.p2")}</p>
        <p>{t("agreement.p3")}</p>
      </div>
    </Modal>
  );
}
