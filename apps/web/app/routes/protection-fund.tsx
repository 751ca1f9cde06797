import { FuturesPath, type InsuranceFund, isSuccessCode } from "@meridian/contracts";
import { useTranslation } from "react-i18next";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import { readServerContext } from "../lib/server-context.server.ts";
import type { Route } from "./+types/protection-fund";

/** The futures insurance fund balance (public). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = readServerContext(context);
  let fund: InsuranceFund | null = null;
  try {
    const answer = server ? await server.api<InsuranceFund>(FuturesPath.INSURANCE_FUND) : null;
    fund = answer && isSuccessCode(answer.code) ? answer.data : null;
  } catch {
    fund = null;
  }
  return { i18n: loadI18n(locale, ["futures"]), fund };
}

export default function ProtectionFund({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("futures");
  return (
    <main className="futures-page">
      <h1>{t("protectionFund.title")}</h1>
      <p>{t("protectionFund.body")}</p>
      <p>
        {t("protectionFund.balance")}:{" "}
        <b data-testid="insurance-balance">{loaderData.fund?.balance ?? "--"}</b> USDT
      </p>
    </main>
  );
}
