import { FUTURES_MARGIN_COINS, type MarginPairInfo, WALLETS, type WalletValue } from "@meridian/contracts";
import { compare, isPositive, normalizeDecimal } from "@meridian/domain";
import { Button, type ButtonProps, Modal } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
import { marginApi, marginErrorText, marginPairs } from "../../api/margin.ts";
import { paperApi } from "../../api/paper.ts";
import { newClientId } from "../../lib/client-id.ts";
import { PickField, TransferAmount } from "../../ui/amount-field.tsx";
import { transferPrefill } from "../../ui/amounts.ts";
import { DialogButton } from "../../ui/dialog-button.tsx";

export interface WalletTransferProps {
  from: WalletValue;
  to: WalletValue;
  /** The isolated pair (when either side is ISOLATED_MARGIN). */
  symbol?: string | undefined;
  asset?: string | undefined;
  onDone: () => void;
  primary?: boolean;
  size?: "small" | "middle";
  /** Known futures maxTransferOut (saves a read when the futures page already has it). */
  futuresMax?: string | undefined;
  /** Suggested amount (the futures order form's shortfall), prefilled up to what may leave `from`. */
  amount?: string | undefined;
  testId?: string;
}

const isolated = (a: WalletValue, b: WalletValue) => a === "ISOLATED_MARGIN" || b === "ISOLATED_MARGIN";

/**
 * The assets a route can carry: an isolated account its pair, the others any pair asset;
 * with futures at one end, those of them with a futures wallet (USDT: the USDT-M one, a
 * coin-M margin coin: that coin's coin-M wallet).
 */
export function transferAssets(
  from: WalletValue,
  to: WalletValue,
  pair: MarginPairInfo | undefined,
  pairs: readonly MarginPairInfo[],
): string[] {
  const futures = from === "FUTURES" || to === "FUTURES";
  const other = from === "FUTURES" ? to : from;
  if (futures && other === "SPOT") return [...FUTURES_MARGIN_COINS];
  const carried = isolated(from, to)
    ? pair
      ? [pair.quote, pair.base]
      : ["USDT"]
    : [...new Set(["USDT", ...pairs.flatMap((p) => [p.base, p.quote])])];
  if (!futures) return carried;
  const onFutures = carried.filter((a) => (FUTURES_MARGIN_COINS as readonly string[]).includes(a));
  return onFutures.length > 0 ? onFutures : ["USDT"];
}

/** What may leave `from` now: spot's available, futures' maxTransferOut, a margin account's max transferable. */
async function maxOut(
  from: WalletValue,
  asset: string,
  symbol: string,
  futuresMax?: string,
): Promise<string> {
  if (from === "SPOT") return (await paperApi.balances()).find((b) => b.asset === asset)?.available ?? "0";
  // USDT: the USDT-M wallet (its maxTransferOut may be known); a coin: its coin-M wallet.
  if (from === "FUTURES")
    return (asset === "USDT" ? futuresMax : undefined) ?? (await futuresApi.account(asset)).maxTransferOut;
  const mode = from === "CROSS_MARGIN" ? "cross" : "isolated";
  return (await marginApi.maxTransferable({ mode, symbol: mode === "isolated" ? symbol : undefined, asset }))
    .amount;
}

/**
 * The one wallet-transfer dialog of the futures, margin and asset pages: from and to
 * among spot, futures, cross and isolated margin (with the pair), the asset, the amount
 * and its maximum; `POST /v1/paper/asset/transfer`. Futures in USDT is the USDT-M
 * wallet, futures in a coin (BTC) that coin's coin-M wallet, and the wallet's name says which.
 */
export function WalletTransferButton(props: WalletTransferProps) {
  const { t } = useTranslation("margin");
  return (
    <DialogButton
      label={t("transfer.button")}
      testId={props.testId ?? "wallet-transfer-open"}
      primary={props.primary}
      size={props.size}
      dialog={(close) => <TransferDialog {...props} onClose={close} />}
    />
  );
}

/** The dialog alone, open while mounted (a caller that opens it itself, e.g. on a shortfall). */
export function WalletTransferDialog(
  props: Omit<WalletTransferProps, "primary" | "size" | "testId"> & { onClose: () => void },
) {
  return <TransferDialog {...props} />;
}

function TransferDialog(props: WalletTransferProps & { onClose: () => void }) {
  const { t } = useTranslation("margin");
  const [from, setFrom] = useState<WalletValue>(props.from);
  const [to, setTo] = useState<WalletValue>(props.to);
  const [pairs, setPairs] = useState<MarginPairInfo[]>([]);
  const [symbol, setSymbol] = useState(props.symbol ?? "BTCUSDT");
  const [asset, setAsset] = useState(props.asset ?? "USDT");
  /** What the user typed or picked; until then the field shows the suggestion (transferPrefill). */
  const [typed, setTyped] = useState<string | null>(null);
  const [max, setMax] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");

  useEffect(() => {
    void marginPairs().then(
      (p) => setPairs(p.pairs),
      () => {},
    );
  }, []);
  const pair = pairs.find((p) => p.symbol === symbol);
  const assets = transferAssets(from, to, pair, pairs);
  const chosen = assets.includes(asset) ? asset : (assets[0] ?? "USDT");
  // The suggestion is an amount of the asset it was made for.
  const amount = typed ?? transferPrefill(chosen === props.asset ? props.amount : undefined, max);

  useEffect(() => {
    let stale = false;
    setMax(null);
    maxOut(from, chosen, symbol, from === "FUTURES" ? props.futuresMax : undefined).then(
      (m) => !stale && setMax(m),
      () => !stale && setMax("0"),
    );
    return () => {
      stale = true;
    };
  }, [from, chosen, symbol, props.futuresMax]);

  const pick = (side: "from" | "to", w: WalletValue) => {
    setProblem("");
    if (side === "from") {
      if (w === to) setTo(from);
      setFrom(w);
    } else {
      if (w === from) setFrom(to);
      setTo(w);
    }
  };

  // One id per transfer as shown: confirming again after an error or a timeout sends the
  // same id, so a transfer that had landed is not made twice; a change, or a success, makes a new one.
  const sent = useRef<{ key: string; id: string } | null>(null);

  const submit = async () => {
    const value = normalizeDecimal(amount);
    if (value === "" || !isPositive(value) || (max !== null && compare(value, max) > 0)) {
      setProblem(t("transfer.invalid"));
      return;
    }
    const key = [from, to, chosen, value, symbol].join("|");
    if (sent.current?.key !== key) sent.current = { key, id: newClientId() };
    const clientTransferId = sent.current.id;
    setBusy(true);
    setProblem("");
    try {
      await marginApi.transfer({
        from,
        to,
        asset: chosen,
        amount: value,
        clientTransferId,
        ...(isolated(from, to) ? { symbol } : {}),
      });
      sent.current = null;
      props.onClose();
      props.onDone();
    } catch (e) {
      setProblem(marginErrorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const walletSelect = (side: "from" | "to", value: WalletValue) => (
    <PickField
      label={t(`transfer.${side}`)}
      value={value}
      options={WALLETS}
      onChange={(w) => pick(side, w as WalletValue)}
      render={(w) =>
        w === "FUTURES" && chosen !== "USDT" ? t("wallets.coinFutures", { coin: chosen }) : t(`wallets.${w}`)
      }
      testId={`transfer-${side}`}
    />
  );

  return (
    <Modal
      open
      title={t("transfer.title")}
      onCancel={props.onClose}
      onOk={() => void submit()}
      okText={t("transfer.confirm")}
      cancelText={t("cancel")}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "transfer-submit" } as ButtonProps}
      destroyOnHidden
    >
      <div className="trade-dialog" data-testid="wallet-transfer">
        <div className="wallet-transfer-route">
          {walletSelect("from", from)}
          <Button
            size="small"
            onClick={() => pick("from", to)}
            aria-label={t("transfer.swap")}
            data-testid="transfer-swap"
          >
            ⇅
          </Button>
          {walletSelect("to", to)}
        </div>
        {isolated(from, to) ? (
          <PickField
            label={t("transfer.pair")}
            value={symbol}
            options={pairs.length ? pairs.map((p) => p.symbol) : [symbol]}
            onChange={setSymbol}
            testId="transfer-symbol"
          />
        ) : null}
        <PickField
          label={t("transfer.asset")}
          value={chosen}
          options={assets}
          onChange={setAsset}
          testId="transfer-asset"
        />
        <TransferAmount asset={chosen} value={amount} onChange={setTyped} max={max} problem={problem} />
      </div>
    </Modal>
  );
}
