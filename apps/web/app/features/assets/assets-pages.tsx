import { PAPER_TOPUP_CAP, type PaperBalance, PaperCode } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { formatDecimal, isPositive, normalizeDecimal, sanitizeDecimalInput } from "@meridian/domain";
import { Button, Modal } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorCode, paperApi } from "../../api/paper.ts";
import { firstError } from "../../lib/use-api-data.ts";
import { balanceAmount } from "../../ui/amounts.ts";
import { Loading } from "../../ui/loading.tsx";
import { formatFiat } from "../../ui/money.ts";
import { useFiat } from "../shell/fiat.tsx";
import { LoadError } from "../shell/load-error.tsx";
import { AccountGate } from "../trading-screen/account-gate.tsx";
import { estimatedBalance, useAccountValues } from "./account-values.ts";
import { useAssets, type ValuedBalance } from "./use-assets.ts";

interface AssetsPageProps {
  locale: string;
  loggedIn: boolean;
}

function Estimate({ totalUsdt, locale, loading }: { totalUsdt: string; locale: string; loading: boolean }) {
  const { t } = useTranslation("assets");
  const { fiat } = useFiat();
  return (
    <div className="assets-estimate" data-testid="assets-estimate">
      <span>{t("estimate")}</span>
      {loading ? (
        <Loading lines={2} />
      ) : (
        <>
          <strong>{formatDecimal(totalUsdt, 2)} USDT</strong>
          <small>≈ {formatFiat(totalUsdt, fiat, locale)}</small>
        </>
      )}
    </div>
  );
}

function BalanceRows({
  balances,
  locale,
  loading,
}: {
  balances: readonly ValuedBalance[];
  locale: string;
  loading: boolean;
}) {
  const { t } = useTranslation("assets");
  const { fiat } = useFiat();
  return (
    <div className="assets-table-wrap">
      <table className="assets-table" data-testid="assets-table">
        <thead>
          <tr>
            <th>{t("table.coin")}</th>
            <th>{t("table.total")}</th>
            <th>{t("table.available")}</th>
            <th>{t("table.held")}</th>
            <th>{t("table.value")}</th>
            <th>{t("table.action")}</th>
          </tr>
        </thead>
        <tbody>
          {balances.length === 0 ? (
            <tr>
              <td colSpan={6} className="assets-empty">
                {loading ? <Loading /> : t("table.empty")}
              </td>
            </tr>
          ) : null}
          {balances.map((b) => (
            <tr key={b.asset} data-asset={b.asset}>
              <td>
                <span className="assets-coin" aria-hidden="true">
                  {b.asset.slice(0, 1)}
                </span>
                <strong>{b.asset}</strong>
              </td>
              <td data-testid={`asset-total-${b.asset}`}>{balanceAmount(b.asset, b.total)}</td>
              <td>{balanceAmount(b.asset, b.available)}</td>
              <td>{balanceAmount(b.asset, b.held)}</td>
              <td>
                {b.usdt === "" ? "--" : `${formatDecimal(b.usdt, 2)} USDT`}
                {b.usdt === "" ? null : (
                  <small className="assets-fiat">≈ {formatFiat(b.usdt, fiat, locale)}</small>
                )}
              </td>
              <td>
                {b.asset === "USDT" ? (
                  <a href={localizePath(locale, "/spot/BTCUSDT")}>{t("table.trade")}</a>
                ) : (
                  <a href={localizePath(locale, `/spot/${b.asset}USDT`)}>{t("table.trade")}</a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /asset: the estimated value of every wallet in USDT and the visitor's fiat, and each account. */
export function AssetOverviewPage({ locale, loggedIn }: AssetsPageProps) {
  const { t } = useTranslation("assets");
  const { t: ts } = useTranslation("shell");
  const assets = useAssets(loggedIn);
  const values = useAccountValues(assets.access === "ready");
  // Every wallet is in the estimate, so it waits for all three (a failed one is left out, and said).
  const valuesLoading = (values.futures === null || values.margin === null) && values.error === null;
  const retry = () => {
    void assets.reload();
    values.reload();
  };
  return (
    <div className="assets" data-testid="asset-overview">
      <div className="assets-inner">
        <h1>{t("overview.title")}</h1>
        {assets.access !== "ready" ? (
          <AccountGate access={assets.access} locale={locale} />
        ) : (
          <>
            <LoadError error={firstError(assets, values)} onRetry={retry} />
            <section className="assets-card">
              <Estimate
                totalUsdt={estimatedBalance({
                  spot: assets.totalUsdt,
                  futures: values.futures,
                  margin: values.margin,
                })}
                locale={locale}
                loading={assets.loading || valuesLoading}
              />
              <div className="assets-actions">
                <a className="assets-button is-primary" href={localizePath(locale, "/asset/spot")}>
                  {t("overview.topUp")}
                </a>
                <a className="assets-button" href={localizePath(locale, "/spot/BTCUSDT")}>
                  {t("overview.trade")}
                </a>
                <a className="assets-button" href={localizePath(locale, "/record/exchange")}>
                  {t("overview.records")}
                </a>
                <a
                  className="assets-button"
                  href={localizePath(locale, "/proof-of-reserves")}
                  data-testid="assets-por-link"
                >
                  {ts("nav.reserves")}
                </a>
              </div>
            </section>
            <h2>{t("overview.accounts")}</h2>
            <ul className="assets-accounts">
              {(
                [
                  ["spot", assets.loaded ? assets.totalUsdt : null, assets.loading],
                  ["futures", values.futures, values.futures === null && values.error === null],
                  ["margin", values.margin, values.margin === null && values.error === null],
                ] as const
              ).map(([key, value, loading]) => (
                <li key={key}>
                  <a href={localizePath(locale, `/asset/${key}`)} data-testid={`account-link-${key}`}>
                    <span>{t(`overview.${key}`)}</span>
                    <strong>
                      {loading ? (
                        <Loading lines={1} inline />
                      ) : (
                        <bdi dir="ltr">{value === null ? "--" : `${formatDecimal(value, 2)} USDT`}</bdi>
                      )}
                    </strong>
                  </a>
                </li>
              ))}
            </ul>
            <h2>{t("overview.holdings")}</h2>
            <BalanceRows balances={assets.balances} locale={locale} loading={assets.loading} />
          </>
        )}
      </div>
    </div>
  );
}

const TOPUP_ASSETS = Object.keys(PAPER_TOPUP_CAP);

/** /asset/spot: balances with available and held, top-up and reset (each confirmed). */
export function SpotAssetsPage({ locale, loggedIn }: AssetsPageProps) {
  const { t } = useTranslation("assets");
  const assets = useAssets(loggedIn);
  const [asset, setAsset] = useState(TOPUP_ASSETS[0] ?? "USDT");
  const [amount, setAmount] = useState("");
  const [confirm, setConfirm] = useState<"topup" | "reset" | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const run = async (action: () => Promise<PaperBalance[]>, ok: string) => {
    setBusy(true);
    setNotice(null);
    try {
      await assets.apply(await action());
      setNotice({ ok: true, text: ok });
      setAmount("");
    } catch (error) {
      const code = errorCode(error);
      setNotice({
        ok: false,
        text:
          code === PaperCode.TOPUP_LIMIT
            ? t("topUp.limit", { max: PAPER_TOPUP_CAP[asset] ?? "", asset })
            : t("errors.generic"),
      });
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };

  if (assets.access !== "ready") {
    return (
      <div className="assets" data-testid="asset-spot">
        <div className="assets-inner">
          <h1>{t("spot.title")}</h1>
          <AccountGate access={assets.access} locale={locale} />
        </div>
      </div>
    );
  }

  const value = normalizeDecimal(amount);
  return (
    <div className="assets" data-testid="asset-spot">
      <div className="assets-inner">
        <h1>{t("spot.title")}</h1>
        <section className="assets-card">
          <Estimate totalUsdt={assets.totalUsdt} locale={locale} loading={assets.loading} />
          <form
            className="assets-topup"
            onSubmit={(e) => {
              e.preventDefault();
              if (isPositive(value || "0")) setConfirm("topup");
            }}
          >
            <label>
              <span>{t("topUp.asset")}</span>
              <select value={asset} onChange={(e) => setAsset(e.target.value)} data-testid="topup-asset">
                {TOPUP_ASSETS.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </label>
            <label>
              <span>{t("topUp.amount")}</span>
              <input
                inputMode="decimal"
                dir="ltr"
                value={amount}
                onChange={(e) => setAmount(sanitizeDecimalInput(e.target.value, 8))}
                placeholder={t("topUp.max", { max: formatDecimal(PAPER_TOPUP_CAP[asset] ?? "0", 0) })}
                data-testid="topup-amount"
              />
            </label>
            <Button
              type="primary"
              htmlType="submit"
              disabled={busy || !isPositive(value || "0")}
              data-testid="topup-submit"
            >
              {t("topUp.submit")}
            </Button>
            <Button danger onClick={() => setConfirm("reset")} disabled={busy} data-testid="reset-open">
              {t("reset.button")}
            </Button>
          </form>
          {notice ? (
            <p
              className={`assets-notice ${notice.ok ? "is-ok" : "is-error"}`}
              role="status"
              data-testid="assets-notice"
            >
              {notice.text}
            </p>
          ) : null}
        </section>
        <LoadError error={assets.error} onRetry={() => void assets.reload()} />
        <BalanceRows balances={assets.balances} locale={locale} loading={assets.loading} />
        <Modal
          open={confirm !== null}
          title={t(confirm === "reset" ? "reset.title" : "topUp.title")}
          okText={t(confirm === "reset" ? "reset.confirm" : "topUp.confirm")}
          cancelText={t("cancel")}
          okButtonProps={{ danger: confirm === "reset", loading: busy, id: "assets-confirm" }}
          onCancel={() => setConfirm(null)}
          onOk={() =>
            confirm === "reset"
              ? void run(() => paperApi.reset(), t("reset.done"))
              : void run(() => paperApi.topUp(asset, value), t("topUp.done", { amount: value, asset }))
          }
        >
          <p>
            {confirm === "reset"
              ? t("reset.body")
              : t("topUp.body", { amount: formatDecimal(value || "0", 8).replace(/\.?0+$/, ""), asset })}
          </p>
        </Modal>
      </div>
    </div>
  );
}
