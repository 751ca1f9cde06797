import { ApiError } from "@meridian/client/api-error";
import {
  FuturesCode,
  type FuturesPosition,
  type MarginAdjustType,
  type PositionMarginInfo,
} from "@meridian/contracts";
import { compare, isPositive, normalizeDecimal } from "@meridian/domain";
import { type ButtonProps, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
import { errorCode } from "../../api/paper.ts";
import { AmountField } from "../../ui/amount-field.tsx";
import { marginAmount } from "../trading-screen/contract-format.ts";

const PREVIEW_DELAY_MS = 250;

/** `data.max` of a refusal (14002 / 14012), when the server sent one. */
function maxOf(e: unknown): string | null {
  if (!(e instanceof ApiError) || typeof e.data !== "object" || e.data === null) return null;
  const max = (e.data as { max?: unknown }).max;
  return typeof max === "string" ? max : null;
}

/**
 * Binance's "Adjust Margin" on an isolated position: add from the futures wallet or
 * remove down to what the position needs. The most each way and the liquidation price
 * after the change come from the server's preview (`GET .../positions/margin`).
 */
export function AdjustMarginButton({ position, onDone }: { position: FuturesPosition; onDone: () => void }) {
  const { t } = useTranslation("futures");
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="trade-link-button futures-adjust"
        onClick={() => setOpen(true)}
        aria-label={t("adjustMargin.title")}
        title={t("adjustMargin.title")}
        data-testid="position-adjust-margin"
      >
        {t("adjustMargin.button")}
      </button>
      {open ? (
        <AdjustMarginDialog
          position={position}
          onClose={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            onDone();
          }}
        />
      ) : null}
    </>
  );
}

function AdjustMarginDialog({
  position,
  onClose,
  onDone,
}: {
  position: FuturesPosition;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation("futures");
  const [type, setType] = useState<MarginAdjustType>("ADD");
  const [amount, setAmount] = useState("");
  const [info, setInfo] = useState<PositionMarginInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const { symbol, positionSide } = position;

  useEffect(() => {
    let stale = false;
    const value = normalizeDecimal(amount);
    const timer = setTimeout(
      () => {
        void futuresApi
          .marginInfo({ symbol, positionSide, ...(isPositive(value || "0") ? { type, amount: value } : {}) })
          .then(
            (r) => {
              if (!stale) setInfo(r);
            },
            () => {},
          );
      },
      amount === "" ? 0 : PREVIEW_DELAY_MS,
    );
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [symbol, positionSide, type, amount]);

  const max = info === null ? "0" : type === "ADD" ? info.maxAdd : info.maxRemove;
  const submit = async () => {
    const value = normalizeDecimal(amount);
    if (value === "" || !isPositive(value) || compare(value, max) > 0) {
      setProblem(
        t(type === "ADD" ? "adjustMargin.overAdd" : "adjustMargin.overRemove", {
          max: marginAmount(position.marginCoin, max),
        }),
      );
      return;
    }
    setBusy(true);
    setProblem("");
    try {
      await futuresApi.adjustMargin({ symbol, positionSide, type, amount: value });
      onDone();
    } catch (e) {
      const code = errorCode(e);
      const limit = maxOf(e);
      setProblem(
        code === FuturesCode.MARGIN_REDUCE_EXCEEDS ||
          (code === FuturesCode.MARGIN_INSUFFICIENT && limit !== null)
          ? t(
              code === FuturesCode.MARGIN_REDUCE_EXCEEDS ? "adjustMargin.overRemove" : "adjustMargin.overAdd",
              {
                max: marginAmount(position.marginCoin, limit ?? "0"),
              },
            )
          : t(`errors.${code}`, { defaultValue: t("errors.generic") }),
      );
    } finally {
      setBusy(false);
    }
  };

  const row = (label: string, value: string, testId: string) => (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>
        <bdi dir="ltr">{value}</bdi>
      </dd>
    </>
  );
  const side = positionSide === "BOTH" ? "" : ` ${t(`positionSides.${positionSide}`)}`;
  return (
    <Modal
      open
      title={`${t("adjustMargin.title")} · ${symbol}${side}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t("confirm")}
      cancelText={t("cancel")}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "adjust-margin-submit" } as ButtonProps}
      destroyOnHidden
    >
      <div className="trade-dialog" data-testid="adjust-margin-dialog">
        <div className="trade-tabs" role="tablist" aria-label={t("adjustMargin.title")}>
          {(["ADD", "REDUCE"] as const).map((k) => (
            <button
              key={k}
              type="button"
              role="tab"
              aria-selected={type === k}
              className={type === k ? "is-active" : undefined}
              onClick={() => {
                setType(k);
                setProblem("");
              }}
              data-testid={`adjust-margin-${k.toLowerCase()}`}
            >
              {t(k === "ADD" ? "adjustMargin.add" : "adjustMargin.remove")}
            </button>
          ))}
        </div>
        <AmountField
          asset={position.marginCoin}
          value={amount}
          onChange={setAmount}
          onMax={() => setAmount(normalizeDecimal(max))}
          testId="adjust-margin-amount"
        />
        <dl className="futures-adjust-figures">
          {row(
            t("adjustMargin.current"),
            `${marginAmount(position.marginCoin, info?.margin ?? position.margin)} ${position.marginCoin}`,
            "adjust-margin-current",
          )}
          {row(
            t(type === "ADD" ? "adjustMargin.maxAdd" : "adjustMargin.maxRemove"),
            `${marginAmount(position.marginCoin, max)} ${position.marginCoin}`,
            "adjust-margin-max",
          )}
          {row(
            t("liqPrice"),
            info?.liquidationPrice ?? position.liquidationPrice ?? "--",
            "adjust-margin-liq",
          )}
          {row(
            t("adjustMargin.liqAfter"),
            info?.after ? (info.after.liquidationPrice ?? "--") : "--",
            "adjust-margin-liq-after",
          )}
        </dl>
        {problem ? (
          <p role="alert" className="trade-message is-error" data-testid="adjust-margin-problem">
            {problem}
          </p>
        ) : null}
      </div>
    </Modal>
  );
}
