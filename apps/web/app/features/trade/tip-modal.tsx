import { Modal } from "antd";
import { useTranslation } from "react-i18next";

export interface TipModalProps {
  open: boolean;
  title: string | undefined;
  body: string | undefined;
  dontShow: boolean;
  onDontShowChange: (on: boolean) => void;
  onClose: (go: boolean) => void;
}

/** The don't-show-again tip's dialog (antd; loaded with the first tip, see useTips). */
export function TipModal({ open, title, body, dontShow, onDontShowChange, onClose }: TipModalProps) {
  const { t } = useTranslation("trade");
  return (
    <Modal
      open={open}
      title={title}
      onOk={() => onClose(true)}
      onCancel={() => onClose(false)}
      okText={t("tips.continue")}
      cancelText={t("tips.cancel")}
      destroyOnHidden
    >
      <div data-testid="tip-dialog">
        <p>{body}</p>
        <label className="trade-check trade-tip-check">
          <input
            type="checkbox"
            checked={dontShow}
            onChange={(e) => onDontShowChange(e.target.checked)}
            data-testid="tip-dont-show"
          />
          {t("tips.dontShow")}
        </label>
      </div>
    </Modal>
  );
}
