import { Button, Input, Space } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";

const RESEND_AFTER_S = 60;

/**
 * A code field with its "Send code" button: `body` is posted to `api` (a security or reset
 * send-code call); the button counts down before a resend.
 */
export function SendCodeInput({
  api,
  body,
  value,
  onChange,
  onError,
  testId,
  disabled = false,
}: {
  api: string;
  body: () => Record<string, unknown> | undefined;
  value?: string;
  onChange?: (value: string) => void;
  onError: (err: unknown) => void;
  testId: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation("account");
  const [wait, setWait] = useState(0);
  const [sentTo, setSentTo] = useState<string | undefined>();
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);
  const send = async () => {
    const payload = body();
    if (payload === undefined) return;
    try {
      const answer = await accountClient().api.post<{ sentTo: string }>(api, payload, { silent: true });
      setSentTo(answer.sentTo);
      setWait(RESEND_AFTER_S);
    } catch (err) {
      onError(err);
    }
  };
  return (
    <>
      <Space.Compact style={{ width: "100%" }}>
        <Input
          inputMode="numeric"
          maxLength={6}
          autoComplete="one-time-code"
          value={value}
          onChange={(e) => onChange?.(e.target.value)}
          data-testid={`${testId}-input`}
        />
        <Button onClick={send} disabled={disabled || wait > 0} data-testid={`${testId}-send`}>
          {wait > 0 ? t("settings.resendIn", { seconds: wait }) : t("settings.sendCode")}
        </Button>
      </Space.Compact>
      {sentTo && (
        <div className="security-hint" data-testid={`${testId}-sent`}>
          {t("settings.codeSent", { to: sentTo })}
        </div>
      )}
    </>
  );
}
