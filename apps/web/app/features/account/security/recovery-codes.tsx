import type { RecoveryCodesIssued, RecoveryCodesStatus, UserRecord } from "@meridian/contracts";
import { Alert, Button, Form, Input, Typography } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { accountClient } from "../../../api/account-client.ts";
import { useApiData } from "../../../lib/use-api-data.ts";
import { Loading } from "../../../ui/loading.tsx";
import { LoadError } from "../../shell/load-error.tsx";
import { RECOVERY_CODE_PATTERN } from "../recovery-code.ts";
import { failureText } from "./security-shell.tsx";

/**
 * The ten codes in plain text, shown once (after binding the authenticator or
 * regenerating): copy them or save them as a text file.
 */
export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const { t } = useTranslation("account");
  const text = codes.join("\n");
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "meridian-recovery-codes.txt";
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div data-testid="recovery-codes" style={{ marginTop: 16 }}>
      <Alert type="warning" title={t("recovery.showOnce")} />
      <ol className="recovery-code-list" dir="ltr" data-testid="recovery-code-list">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <Typography.Paragraph copyable={{ text, tooltips: [t("recovery.copy"), t("recovery.copied")] }}>
        {t("recovery.copyAll")}
      </Typography.Paragraph>
      <Button onClick={download} data-testid="recovery-download">
        {t("recovery.download")}
      </Button>
    </div>
  );
}

/** The security page's part: how many codes are left, and new codes for a current authenticator code. */
export function RecoveryCodesSection({ user }: { user: UserRecord }) {
  const { t } = useTranslation("account");
  const load = useCallback(
    () =>
      accountClient().api.get<RecoveryCodesStatus>("v1/user/security/recoveryCodes", undefined, {
        silent: true,
      }),
    [],
  );
  const status = useApiData(load, user.bindGoogle);
  const [issued, setIssued] = useState<string[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ googleCode: string }>();
  if (!user.bindGoogle) return null;
  const regenerate = async (v: { googleCode: string }) => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await accountClient().api.post<RecoveryCodesIssued>("v1/user/google/recoveryCodes", v, {
        silent: true,
      });
      setIssued(answer.recoveryCodes);
      form.resetFields();
      await status.reload();
    } catch (err) {
      setError(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section style={{ marginTop: 24 }} aria-labelledby="recovery-title" data-testid="recovery-section">
      <h3 id="recovery-title">{t("recovery.title")}</h3>
      <LoadError error={status.error} onRetry={() => void status.reload()} />
      {!status.settled && <Loading lines={1} />}
      {status.data !== undefined && (
        <p data-testid="recovery-remaining">
          {t("recovery.remaining", { left: status.data.remaining, total: status.data.total })}
        </p>
      )}
      {status.data?.remaining === 0 && <Alert type="warning" title={t("recovery.noneLeft")} />}
      {issued !== undefined && <RecoveryCodesList codes={issued} />}
      {error && <Alert type="error" title={error} data-testid="recovery-error" style={{ marginTop: 12 }} />}
      <Form form={form} layout="vertical" onFinish={regenerate} style={{ marginTop: 12 }}>
        <p>{t("recovery.regenerateHint")}</p>
        <Form.Item
          label={t("settings.googleCode")}
          name="googleCode"
          rules={[{ required: true }, { pattern: /^\d{6}$/ }]}
        >
          <Input inputMode="numeric" maxLength={6} data-testid="recovery-google" />
        </Form.Item>
        <Button htmlType="submit" loading={busy} data-testid="recovery-regenerate">
          {t("recovery.regenerate")}
        </Button>
      </Form>
    </section>
  );
}

/**
 * The authenticator code a sensitive change asks for, with a switch to type one of the
 * recovery codes instead (a lost phone): the body then carries `recoveryCode`.
 */
export function SecondFactorItem({ testId, required = true }: { testId: string; required?: boolean }) {
  const { t } = useTranslation("account");
  const [useRecovery, setUseRecovery] = useState(false);
  return (
    <>
      {useRecovery ? (
        <Form.Item
          label={t("recovery.code")}
          name="recoveryCode"
          preserve={false}
          rules={[{ required }, { pattern: RECOVERY_CODE_PATTERN, message: t("recovery.format") }]}
        >
          <Input autoComplete="off" dir="ltr" maxLength={13} data-testid={`${testId}-recovery`} />
        </Form.Item>
      ) : (
        <Form.Item
          label={t("settings.googleCode")}
          name="googleCode"
          preserve={false}
          rules={[{ required }, { pattern: /^\d{6}$/ }]}
        >
          <Input inputMode="numeric" maxLength={6} data-testid={testId} />
        </Form.Item>
      )}
      <div style={{ marginTop: -8, marginBottom: 16 }}>
        <Button
          type="link"
          size="small"
          style={{ paddingInline: 0 }}
          onClick={() => setUseRecovery(!useRecovery)}
          data-testid={`${testId}-switch`}
        >
          {useRecovery ? t("recovery.useAuthenticator") : t("recovery.useRecovery")}
        </Button>
      </div>
    </>
  );
}
