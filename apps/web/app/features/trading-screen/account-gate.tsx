import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { EnterSimulationButton } from "../../ui/enter-simulation-button.tsx";
import type { TradeAccess } from "./panel-parts.tsx";

/** What visitors and users outside simulation mode see instead of paper-account data. */
export function AccountGate({ access, locale }: { access: Exclude<TradeAccess, "ready">; locale: string }) {
  const { t } = useTranslation("assets");
  return (
    <div
      className="assets-gate"
      data-testid={access === "guest" ? "assets-login-prompt" : "assets-sim-prompt"}
    >
      <p>{t(access === "guest" ? "gate.login" : "gate.simulation")}</p>
      {access === "guest" ? (
        <a className="assets-button is-primary" href={localizePath(locale, "/login")}>
          {t("gate.loginButton")}
        </a>
      ) : (
        <EnterSimulationButton type="primary" size="large" />
      )}
    </div>
  );
}
