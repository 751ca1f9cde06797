import type { FuturesSettings } from "@meridian/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
import { errorCode } from "../../api/paper.ts";
import { antdIsland } from "../trading-screen/antd-island.tsx";

// antd dialogs, fetched when a paper trader's form first shows them.
const PositionModeButton = antdIsland(() => import("./position-mode.tsx").then((m) => m.PositionModeButton));

// Evenly spread along the range so each label sits near its thumb position.
const LEVERAGE_MARKS = [1, 25, 50, 75, 100, 125];

type Control = "marginMode" | "leverage";

interface Props {
  symbol: string;
  settings: FuturesSettings | null;
  dual: boolean;
  /** The settings as the server now holds them (after a change, or re-read after a refusal). */
  onSettings: (s: FuturesSettings) => void;
  /** The slider moved: shown at once, sent on release. */
  onLeverageDraft: (leverage: number) => void;
  onPositionMode: (dual: boolean) => void;
  onChanged: () => void;
}

/**
 * Margin mode, position mode and leverage of one contract. A change the server refuses
 * (14009 while a position or an order is open, 14003 above the contract's bracket) is
 * said under the control that made it, and the control goes back to the server's value:
 * the settings are read again, so what shows is what the next order will use.
 */
export function SettingsControls(props: Props) {
  const { symbol, settings, dual, onSettings } = props;
  const { t } = useTranslation("futures");
  const [refusal, setRefusal] = useState<{ control: Control; text: string } | null>(null);

  const change = async (control: Control, fn: () => Promise<FuturesSettings>) => {
    setRefusal(null);
    try {
      onSettings(await fn());
      props.onChanged();
    } catch (e) {
      const code = errorCode(e);
      setRefusal({ control, text: t(`errors.${code}`, { defaultValue: t("errors.setting") }) });
      await futuresApi.settings(symbol).then(onSettings, () => {});
    }
  };
  const leverage = settings?.leverage ?? 20;
  const maxLeverage = settings?.maxLeverage ?? 125;
  const commitLeverage = (v: number) => {
    props.onLeverageDraft(v);
    void change("leverage", () => futuresApi.leverage(symbol, v));
  };
  const note = (control: Control) =>
    refusal?.control === control ? (
      <p
        className="trade-message is-error futures-setting-error"
        role="alert"
        id={`futures-${control}-error`}
        data-testid={`futures-${control}-error`}
      >
        {refusal.text}
      </p>
    ) : null;

  return (
    <div className="futures-mode">
      <div className="futures-mode-row">
        <fieldset
          className="trade-side-switch futures-fieldset"
          aria-label={t("marginMode")}
          aria-describedby={refusal?.control === "marginMode" ? "futures-marginMode-error" : undefined}
        >
          {(["cross", "isolated"] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={settings?.marginMode === m}
              className={settings?.marginMode === m ? "is-buy is-active" : "is-buy"}
              onClick={() => void change("marginMode", () => futuresApi.marginMode(symbol, m))}
              data-testid={`margin-mode-${m}`}
            >
              {t(m)}
            </button>
          ))}
        </fieldset>
        <PositionModeButton dual={dual} onChanged={props.onPositionMode} />
      </div>
      {note("marginMode")}
      <div className="futures-leverage">
        <span>
          {t("leverage")}{" "}
          <b data-testid="leverage-value" dir="ltr">
            {leverage}x
          </b>
        </span>
        <input
          type="range"
          min={1}
          max={maxLeverage}
          step={1}
          value={leverage}
          aria-label={t("leverage")}
          aria-valuetext={`${leverage}x`}
          aria-describedby={refusal?.control === "leverage" ? "futures-leverage-error" : undefined}
          onChange={(e) => props.onLeverageDraft(Number(e.target.value))}
          onPointerUp={(e) => commitLeverage(Number(e.currentTarget.value))}
          onKeyUp={(e) => commitLeverage(Number(e.currentTarget.value))}
          data-testid="leverage-slider"
        />
        <div className="futures-leverage-marks">
          {LEVERAGE_MARKS.filter((m) => m <= maxLeverage).map((m) => (
            <button key={m} type="button" onClick={() => commitLeverage(m)} data-testid={`leverage-${m}`}>
              {m}x
            </button>
          ))}
        </div>
        {note("leverage")}
      </div>
    </div>
  );
}
