import type { PorProofView, PorSummary } from "@meridian/contracts";
import { PorCode, PorPath } from "@meridian/contracts";
import { type PorVerifyResult, verifyPorProof } from "@meridian/domain";
import dayjs from "dayjs";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { trimDecimal } from "../../api/margin.ts";
import { errorCode } from "../../api/paper.ts";
import { recordsApi, saveBlob } from "../../api/records.ts";
import { balanceAmount } from "../../ui/amounts.ts";
import { LoadError } from "../shell/load-error.tsx";
import { useMounted } from "../trading-screen/use-mounted.ts";

interface PorPageProps {
  summary: PorSummary | null;
  loggedIn: boolean;
  isAdmin: boolean;
}

const short = (hash: string) => `${hash.slice(0, 10)}…${hash.slice(-8)}`;

/** Minor units of an asset (8 decimals for every asset the ledger carries but XRP, TRX, ADA). */
const DECIMALS: Record<string, number> = { XRP: 6, TRX: 6, ADA: 6 };
function fromMinor(asset: string, minor: string): string {
  const d = DECIMALS[asset] ?? 8;
  const padded = minor.padStart(d + 1, "0");
  return trimDecimal(`${padded.slice(0, -d)}.${padded.slice(-d)}`);
}

function ReserveTable({ summary }: { summary: PorSummary }) {
  const { t } = useTranslation("pages");
  return (
    <div className="trade-table-wrap">
      <table className="trade-table por-table" data-testid="por-reserves">
        <thead>
          <tr>
            <th>{t("por.asset")}</th>
            <th>{t("por.liabilities")}</th>
            <th>{t("por.treasury")}</th>
            <th>{t("por.insurance")}</th>
            <th>{t("por.lending")}</th>
            <th>{t("por.reserves")}</th>
            <th>{t("por.ratio")}</th>
          </tr>
        </thead>
        <tbody>
          {summary.reserves.map((r) => (
            <tr key={r.asset} data-asset={r.asset}>
              <td>
                <strong>{r.asset}</strong>
              </td>
              {[r.liabilities, r.treasury, r.insuranceFund, r.lendingPool, r.reserves].map((v, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns.
                <td key={i}>
                  <bdi dir="ltr">{balanceAmount(r.asset, v)}</bdi>
                </td>
              ))}
              <td data-testid={`por-ratio-${r.asset}`}>
                <bdi dir="ltr">{r.ratio === null ? "--" : `${r.ratio}%`}</bdi>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const when = (ms: number) => dayjs(ms).format("YYYY-MM-DD HH:mm");

/**
 * The user's leaf and path in the latest snapshot. A snapshot taken since the page was
 * rendered answers the proof: `onNewer` then has the page read the summary again, so the
 * root and figures shown are the ones the proof leads to.
 */
function MyProof({
  nextAt,
  snapshotId,
  onNewer,
}: {
  nextAt: string | null;
  snapshotId: number;
  onNewer: () => void;
}) {
  const { t } = useTranslation("pages");
  const [view, setView] = useState<PorProofView | "none" | { failed: unknown } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<PorVerifyResult | null>(null);
  const newer = useRef(onNewer);
  newer.current = onNewer;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry: it reads again.
  useEffect(() => {
    let stale = false;
    setView(null);
    recordsApi.porProof().then(
      (v) => {
        if (stale) return;
        setView(v);
        if (v.snapshotId !== snapshotId) newer.current();
      },
      (err) => !stale && setView(errorCode(err) === PorCode.NO_LEAF ? "none" : { failed: err }),
    );
    return () => {
      stale = true;
    };
  }, [snapshotId, attempt]);
  if (view === null) return <p className="trade-empty">{t("transac.loading")}</p>;
  if (typeof view === "object" && "failed" in view)
    return <LoadError error={view.failed} onRetry={() => setAttempt((n) => n + 1)} />;
  if (view === "none")
    return (
      <p className="por-note" data-testid="por-no-leaf">
        {nextAt === null ? t("por.noLeaf") : t("por.noLeafAt", { time: nextAt })}
      </p>
    );
  const { proof } = view;
  const handleVerify = () => setResult(verifyPorProof(proof));
  const handleDownload = () =>
    saveBlob(
      new Blob([JSON.stringify(view, null, 2)], { type: "application/json" }),
      `meridian-por-proof-${view.snapshotId}.json`,
    );
  return (
    <section className="por-card" data-testid="por-my-proof" aria-label={t("por.myProof")}>
      <h2>{t("por.myProof")}</h2>
      <dl className="mcp-facts">
        <div>
          <dt>{t("por.nonce")}</dt>
          <dd>
            <code data-testid="por-nonce">{proof.leaf.nonce}</code>
          </dd>
        </div>
        {proof.assets.map((a, i) => (
          <div key={a}>
            <dt>{a}</dt>
            <dd>
              <bdi dir="ltr" data-testid={`por-leaf-${a}`}>
                {fromMinor(a, proof.leaf.balances[i] ?? "0")}
              </bdi>
            </dd>
          </div>
        ))}
      </dl>
      <div className="por-actions">
        <button
          type="button"
          className="assets-button is-primary"
          onClick={handleVerify}
          data-testid="por-verify"
        >
          {t("por.verify")}
        </button>
        <button
          type="button"
          className="assets-button"
          onClick={handleDownload}
          data-testid="por-download-proof"
        >
          {t("por.downloadProof")}
        </button>
        <a
          className="assets-button"
          href={PorPath.VERIFIER}
          download="por-verify.mjs"
          data-testid="por-download-script"
        >
          {t("por.downloadScript")}
        </a>
      </div>
      {result === null ? null : (
        <p
          className={result.ok ? "por-result is-ok" : "por-result is-bad"}
          role="status"
          data-testid="por-verify-result"
          data-ok={result.ok ? "1" : "0"}
        >
          {result.ok ? t("por.verified") : t("por.notVerified", { reason: result.reason })}
        </p>
      )}
      <p className="por-note">{t("por.scriptHint")}</p>
      <h3>{t("por.path")}</h3>
      <div className="trade-table-wrap">
        <table className="trade-table" data-testid="por-path">
          <thead>
            <tr>
              <th>{t("por.height")}</th>
              <th>{t("por.side")}</th>
              <th>{t("por.hash")}</th>
              {proof.assets.map((a) => (
                <th key={a}>{a}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {proof.path.map((step, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a path's steps are fixed, one per height.
              <tr key={i}>
                <td>{i + 1}</td>
                <td>{t(step.side === "L" ? "por.left" : "por.right")}</td>
                <td>
                  <code title={step.hash}>{short(step.hash)}</code>
                </td>
                {proof.assets.map((a, k) => (
                  <td key={a}>
                    <bdi dir="ltr">{fromMinor(a, step.balances[k] ?? "0")}</bdi>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** /proof-of-reserves: the latest snapshot's root, liabilities and reserves, and the user's own proof. */
export function PorPage({ summary: initial, loggedIn, isAdmin }: PorPageProps) {
  const { t } = useTranslation("pages");
  const mounted = useMounted();
  const [summary, setSummary] = useState(initial);
  const [building, setBuilding] = useState<"idle" | "busy" | "failed">("idle");
  const handleBuild = () => {
    setBuilding("busy");
    recordsApi.porBuild().then(
      (s) => {
        setSummary(s);
        setBuilding("idle");
      },
      () => setBuilding("failed"),
    );
  };
  return (
    <main className="records por" data-testid="por-page">
      <div className="records-inner">
        <h1>{t("por.title")}</h1>
        <p className="por-lead">{t("por.lead")}</p>
        {summary?.nextAt === undefined ? null : (
          <p className="por-note" data-testid="por-next">
            {t("por.next", { time: mounted ? when(summary.nextAt) : "--" })}
          </p>
        )}
        {summary === null ? (
          <p className="trade-empty">{t("por.none")}</p>
        ) : summary.accounts === 0 ? (
          <p className="trade-empty" data-testid="por-empty">
            {t("por.empty")}
          </p>
        ) : (
          <>
            <dl className="mcp-facts por-root">
              <div>
                <dt>{t("por.root")}</dt>
                <dd>
                  <code data-testid="por-root-hash">{summary.rootHash}</code>
                </dd>
              </div>
              <div>
                <dt>{t("por.snapshot")}</dt>
                <dd>
                  <bdi dir="ltr">{mounted ? when(summary.time) : "--"}</bdi>
                </dd>
              </div>
              <div>
                <dt>{t("por.accounts")}</dt>
                <dd data-testid="por-accounts">{summary.accounts}</dd>
              </div>
              <div>
                <dt>{t("por.height")}</dt>
                <dd>{summary.height}</dd>
              </div>
            </dl>
            <ReserveTable summary={summary} />
          </>
        )}
        {isAdmin ? (
          <p className="por-actions">
            <button
              type="button"
              className="assets-button"
              onClick={handleBuild}
              disabled={building === "busy"}
              data-testid="por-build"
            >
              {t("por.build")}
            </button>
            {building === "failed" ? <span role="alert">{t("por.failed")}</span> : null}
          </p>
        ) : null}
        {summary !== null && summary.accounts > 0 ? (
          <section className="por-steps" data-testid="por-steps">
            <h2>{t("por.stepsTitle")}</h2>
            <ol>
              {(["por.step1", "por.step2", "por.step3", "por.step4"] as const).map((k) => (
                <li key={k}>{t(k)}</li>
              ))}
            </ol>
          </section>
        ) : null}
        {loggedIn && summary !== null ? (
          <MyProof
            key={summary.id}
            snapshotId={summary.id}
            onNewer={() =>
              void recordsApi.porSummary().then(
                (s) => s && setSummary(s),
                () => {},
              )
            }
            nextAt={summary.nextAt === undefined || !mounted ? null : when(summary.nextAt)}
          />
        ) : null}
        {!loggedIn ? <p className="por-note">{t("por.loginHint")}</p> : null}
        <section className="por-how">
          <h2>{t("por.howTitle")}</h2>
          <p>{t("por.how")}</p>
        </section>
      </div>
    </main>
  );
}
