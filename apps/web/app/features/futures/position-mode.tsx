import { FuturesCode } from "@meridian/contracts";
import { type ButtonProps, Modal } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
import { errorCode } from "../../api/paper.ts";

/**
 * Binance's preference "Position mode": one-way (one BOTH position per symbol) or hedge
 * (a LONG and a SHORT at once). The server refuses a change while any position or open
 * order exists (14009); the dialog says so and stays open.
 */
export function PositionModeButton({
  dual,
  onChanged,
}: {
  dual: boolean;
  onChanged: (dual: boolean) => void;
}) {
  const { t } = useTranslation("futures");
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState(dual);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");

  const show = () => {
    setChoice(dual);
    setProblem("");
    setOpen(true);
  };
  const submit = async () => {
    if (choice === dual) {
      setOpen(false);
      return;
    }
    setBusy(true);
    setProblem("");
    try {
      const r = await futuresApi.positionMode(choice);
      setOpen(false);
      onChanged(r.dualSidePosition);
    } catch (e) {
      const code = errorCode(e);
      setProblem(
        code === FuturesCode.SETTING_LOCKED
          ? t("positionMode.locked")
          : t(`errors.${code}`, { defaultValue: t("errors.generic") }),
      );
    } finally {
      setBusy(false);
    }
  };

  const option = (value: boolean, key: "oneWay" | "hedge") => (
    <label className={`futures-mode-option${choice === value ? " is-active" : ""}`}>
      <input
        type="radio"
        name="position-mode"
        checked={choice === value}
        onChange={() => setChoice(value)}
        data-testid={`position-mode-${key}`}
      />
      <span>
        <b>{t(`positionMode.${key}`)}</b>
        <small>{t(`positionMode.${key}Help`)}</small>
      </span>
    </label>
  );

  return (
    <>
      <button
        type="button"
        className="futures-mode-button"
        onClick={show}
        aria-haspopup="dialog"
        title={t("positionMode.title")}
        data-testid="position-mode-open"
      >
        {t(dual ? "positionMode.hedge" : "positionMode.oneWay")}
      </button>
      <Modal
        open={open}
        title={t("positionMode.title")}
        onCancel={() => setOpen(false)}
        onOk={() => void submit()}
        okText={t("confirm")}
        cancelText={t("cancel")}
        confirmLoading={busy}
        okButtonProps={{ "data-testid": "position-mode-submit" } as ButtonProps}
        destroyOnHidden
      >
        <fieldset className="futures-mode-options" data-testid="position-mode-dialog">
          <legend className="trade-visually-hidden">{t("positionMode.title")}</legend>
          {option(false, "oneWay")}
          {option(true, "hedge")}
        </fieldset>
        <p className="trade-dialog-note">{t("positionMode.note")}</p>
        {problem ? (
          <p role="alert" className="trade-message is-error" data-testid="position-mode-problem">
            {problem}
          </p>
        ) : null}
      </Modal>
    </>
  );
}
