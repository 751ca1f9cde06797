import { FuturesPath, type InsuranceFund, isSuccessCode } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { formatDecimal } from "@meridian/domain";
import { useTranslation } from "react-i18next";
import futuresStyles from "../features/futures/futures.css?url";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import { readServerContext } from "../lib/server-context.server.ts";
import type { Route } from "./+types/protection-fund";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: futuresStyles }];

/** The futures insurance fund balance (public), read on the server. */
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
  const i18n = loadI18n(locale, ["futures"]);
  const meta = (
    i18n.bundles.futures as { protectionFund?: { meta?: { title?: string; description?: string } } }
  ).protectionFund?.meta;
  return { locale, i18n, fund, title: meta?.title ?? "Meridian", description: meta?.description ?? "" };
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [{ title: loaderData.title }, { name: "description", content: loaderData.description }];
}

export default function ProtectionFund({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("futures");
  const { fund, locale } = loaderData;
  return (
    <main className="futures-fund">
      <h1>{t("protectionFund.title")}</h1>
      <p>{t("protectionFund.body")}</p>
      <section className="futures-fund-balance">
        <span>{t("protectionFund.balance")}</span>
        <strong data-testid="insurance-balance">
          <bdi dir="ltr">{fund ? `${formatDecimal(fund.balance, 2)} USDT` : "--"}</bdi>
        </strong>
        {fund ? (
          <small>
            {t("protectionFund.updated")}:{" "}
            <bdi dir="ltr">{new Date(fund.time).toISOString().slice(0, 16).replace("T", " ")} UTC</bdi>
          </small>
        ) : null}
      </section>
      <a href={localizePath(locale, "/futures/usdt/BTCUSDT")}>{t("protectionFund.trade")}</a>
    </main>
  );
}
