import { Button } from "antd";
import { type ReactNode, useState } from "react";

export interface DialogButtonProps {
  /** The button's text. */
  label: ReactNode;
  testId: string;
  /** A primary (filled) button, `middle` sized unless `size` says otherwise. */
  primary?: boolean | undefined;
  size?: "small" | "middle" | undefined;
  /** The dialog, mounted while open; `close` unmounts it. */
  dialog: (close: () => void) => ReactNode;
}

/**
 * A button that opens a dialog mounted only while open (the wallet transfer, margin
 * borrow and repay): small and plain unless `primary`.
 */
export function DialogButton({ label, testId, primary, size, dialog }: DialogButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size={size ?? (primary ? "middle" : "small")}
        type={primary ? "primary" : "default"}
        onClick={() => setOpen(true)}
        data-testid={testId}
      >
        {label}
      </Button>
      {open ? dialog(() => setOpen(false)) : null}
    </>
  );
}
