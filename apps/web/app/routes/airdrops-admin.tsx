import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { AdminNav } from "../features/admin-tools/admin-nav.tsx";
import adminToolsHref from "../features/admin-tools/admin-tools.css?url";
import { loadAdmin } from "../features/airdrops/admin.server.ts";
import { AirdropAdminPage } from "../features/airdrops/admin-page.tsx";
import stylesHref from "../features/airdrops/airdrops.css?url";
import { serverOf } from "../features/airdrops/api.server.ts";
import { localeFromParams } from "../i18n/locale-routing.ts";
import { loadI18n } from "../i18n/resources.server.ts";
import adminAntdHref from "../styles/admin-antd.generated.css?url";
import mediaStylesHref from "../ui/media.css?url";
import type { Route } from "./+types/airdrops-admin";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: adminToolsHref },
  { rel: "stylesheet", href: adminAntdHref },
  { rel: "stylesheet", href: stylesHref },
  { rel: "stylesheet", href: mediaStylesHref },
];

export async function loader({ params, context }: Route.LoaderArgs) {
  const locale = localeFromParams(params);
  const server = serverOf(context);
  const i18n = loadI18n(locale, ["airdrops", "airdropsAdmin", "adminTools", "media"]);
  const result = await loadAdmin(server);
  if ("status" in result) return data({ locale, i18n, admin: null }, { status: result.status });
  return { locale, i18n, admin: result.admin };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const bundle = loaderData?.i18n.bundles.airdropsAdmin as { metaTitle?: string } | undefined;
  return [
    { title: `${bundle?.metaTitle ?? "Airdrop administration"} | Meridian` },
    { name: "robots", content: "noindex, nofollow" },
  ];
};

export default function AirdropsAdmin({ loaderData }: Route.ComponentProps) {
  if (!loaderData.admin) return <AdminForbidden />;
  return (
    <>
      <div className="at-page at-nav-only">
        <AdminNav locale={loaderData.locale} current="airdrops" />
      </div>
      <AirdropAdminPage locale={loaderData.locale} data={loaderData.admin} />
    </>
  );
}

function AdminForbidden() {
  const { t } = useTranslation("airdropsAdmin");
  return (
    <section className="ad-page">
      <h1>{t("title")}</h1>
      <p role="alert">{t("forbidden")}</p>
    </section>
  );
}
