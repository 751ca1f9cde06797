import { Modal } from "antd";
import { useCallback, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { readStored, type StorageKeyValue, writeStored } from "./storage.ts";

interface Pending {
  key: StorageKeyValue;
  title: string;
  body: string;
  resolve: (go: boolean) => void;
}

/**
 * Don't-show-again tips (docs/product.md §3): `confirm(key, ...)` resolves true at once when
 * the visitor turned the tip off, else shows it; the checkbox stores the choice.
 */
export function useTips() {
  const { t } = useTranslation("trade");
  const [pending, setPending] = useState<Pending | null>(null);
  const [dontShow, setDontShow] = useState(false);
  const pendingRef = useRef<Pending | null>(null);
  pendingRef.current = pending;

  const confirm = useCallback((key: StorageKeyValue, title: string, body: string): Promise<boolean> => {
    if (readStored(key) === "1") return Promise.resolve(true);
    return new Promise((resolve) => {
      setDontShow(false);
      setPending({ key, title, body, resolve });
    });
  }, []);

  const close = (go: boolean) => {
    const p = pendingRef.current;
    if (!p) return;
    if (go && dontShow) writeStored(p.key, "1");
    p.resolve(go);
    setPending(null);
  };

  const dialog = (
    <Modal
      open={pending !== null}
      title={pending?.title}
      onOk={() => close(true)}
      onCancel={() => close(false)}
      okText={t("tips.continue")}
      cancelText={t("tips.cancel")}
      destroyOnHidden
    >
      <div data-testid="tip-dialog">
        <p>{pending?.body}</p>
        <label className="trade-check trade-tip-check">
          <input
            type="checkbox"
            checked={dontShow}
            onChange={(e) => setDontShow(e.target.checked)}
            data-testid="tip-dont-show"
          />
          {t("tips.dontShow")}
        </label>
      </div>
    </Modal>
  );
  return { confirm, dialog };
}
