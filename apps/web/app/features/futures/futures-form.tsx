import type { FuturesSettings } from "@meridian/contracts";
import { Button, Input, Radio, Slider, Space } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "./api.ts";

interface Props {
  symbol: string;
  enabled: boolean;
  onPlaced: () => void;
}

/** Limit / market order form with the leverage slider and the margin mode switch. */
export function FuturesOrderForm({ symbol, enabled, onPlaced }: Props) {
  const { t } = useTranslation("futures");
  const [settings, setSettings] = useState<FuturesSettings | null>(null);
  const [type, setType] = useState<"LIMIT" | "MARKET">("MARKET");
  const [price, setPrice] = useState("");
  const [qty, setQty] = useState("");
  const [error, setError] = useState("");

  useEffect(() => {
    if (enabled) void futuresApi.settings(symbol).then(setSettings, () => {});
  }, [enabled, symbol]);

  const run = async (fn: () => Promise<unknown>) => {
    setError("");
    try {
      await fn();
      onPlaced();
    } catch (e) {
      setError((e as { code?: string }).code ?? "error");
    }
  };
  const place = (side: "BUY" | "SELL") =>
    run(() =>
      futuresApi.place({
        symbol,
        side,
        type,
        quantity: qty,
        ...(type === "LIMIT" ? { price } : {}),
      }),
    );

  return (
    <div className="futures-form" data-testid="futures-form">
      <Radio.Group
        value={settings?.marginMode ?? "cross"}
        disabled={!enabled}
        onChange={(e) =>
          void run(async () => setSettings(await futuresApi.marginMode(symbol, e.target.value)))
        }
        optionType="button"
        options={[
          { value: "cross", label: t("cross") },
          { value: "isolated", label: t("isolated") },
        ]}
      />
      <div>
        {t("leverage")}: <b data-testid="leverage-value">{settings?.leverage ?? 20}x</b>
      </div>
      <Slider
        min={1}
        max={settings?.maxLeverage ?? 125}
        value={settings?.leverage ?? 20}
        disabled={!enabled}
        onChange={(v) => setSettings((s) => (s === null ? s : { ...s, leverage: v }))}
        onChangeComplete={(v) => void run(async () => setSettings(await futuresApi.leverage(symbol, v)))}
      />
      <Radio.Group
        value={type}
        onChange={(e) => setType(e.target.value)}
        options={[
          { value: "LIMIT", label: t("limit") },
          { value: "MARKET", label: t("market") },
        ]}
      />
      <Space direction="vertical" style={{ width: "100%" }}>
        {type === "LIMIT" && (
          <Input
            aria-label={t("price")}
            addonBefore={t("price")}
            value={price}
            onChange={(e) => setPrice(e.target.value)}
          />
        )}
        <Input
          aria-label={t("quantity")}
          addonBefore={t("quantity")}
          value={qty}
          onChange={(e) => setQty(e.target.value)}
          data-testid="futures-qty"
        />
        <Space>
          <Button
            type="primary"
            className="futures-long"
            disabled={!enabled}
            onClick={() => void place("BUY")}
          >
            {t("openLong")}
          </Button>
          <Button danger disabled={!enabled} onClick={() => void place("SELL")}>
            {t("openShort")}
          </Button>
        </Space>
        {error !== "" && (
          <div role="alert" className="futures-error">
            {t(`errors.${error}`, { defaultValue: t("errors.generic") })}
          </div>
        )}
      </Space>
    </div>
  );
}
