import { useCallback, useRef, useState } from "react";
import { antdIsland } from "../trading-screen/antd-island.tsx";
import { readStored, type StorageKeyValue, writeStored } from "../trading-screen/storage.ts";
import type { TipModalProps } from "./tip-modal.tsx";

const TipModal = antdIsland<TipModalProps>(() => import("./tip-modal.tsx").then((m) => m.TipModal));

interface Pending {
  key: StorageKeyValue;
  title: string;
  body: string;
  resolve: (go: boolean) => void;
}

/**
 * Don't-show-again tips (docs/product.md §3): `confirm(key, ...)` resolves true at once when
 * the visitor turned the tip off, else shows it; the checkbox stores the choice. The
 * dialog (antd) is fetched with the first tip shown and stays mounted after it.
 */
export function useTips() {
  const [pending, setPending] = useState<Pending | null>(null);
  const [used, setUsed] = useState(false);
  const [dontShow, setDontShow] = useState(false);
  const pendingRef = useRef<Pending | null>(null);
  pendingRef.current = pending;

  const confirm = useCallback((key: StorageKeyValue, title: string, body: string): Promise<boolean> => {
    if (readStored(key) === "1") return Promise.resolve(true);
    return new Promise((resolve) => {
      setDontShow(false);
      setUsed(true);
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

  const dialog = used ? (
    <TipModal
      open={pending !== null}
      title={pending?.title}
      body={pending?.body}
      dontShow={dontShow}
      onDontShowChange={setDontShow}
      onClose={close}
    />
  ) : null;
  return { confirm, dialog };
}
