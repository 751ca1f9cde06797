import { Button, Form, Input, Modal } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { endStepUp } from "../../api/step-up-events.ts";
import accountAntdHref from "../../styles/account-antd.generated.css?url";
import { RECOVERY_CODE_PATTERN } from "./recovery-code.ts";

/**
 * Asks for the authenticator's code (or a recovery code) before a sensitive change is
 * repeated. It opens on any page, so its words are the shell's (always loaded).
 */
export function StepUpDialog() {
  const { t } = useTranslation("shell");
  const [useRecovery, setUseRecovery] = useState(false);
  const submit = (v: { code: string }) =>
    endStepUp(useRecovery ? { recoveryCode: v.code.trim() } : { googleCode: v.code.trim() });
  return (
    <Modal open title={t("stepUp.title")} footer={null} onCancel={() => endStepUp(undefined)} destroyOnHidden>
      <link rel="stylesheet" href={accountAntdHref} precedence="antd" />
      <div data-testid="step-up-dialog">
        <p>{t("stepUp.body")}</p>
        <Form layout="vertical" onFinish={submit}>
          <Form.Item
            key={useRecovery ? "recovery" : "code"}
            label={useRecovery ? t("stepUp.recoveryCode") : t("stepUp.code")}
            name="code"
            rules={[{ required: true }, { pattern: useRecovery ? RECOVERY_CODE_PATTERN : /^\d{6}$/ }]}
          >
            {useRecovery ? (
              <Input autoComplete="off" dir="ltr" maxLength={13} data-testid="step-up-recovery" />
            ) : (
              <Input inputMode="numeric" maxLength={6} autoFocus data-testid="step-up-code" />
            )}
          </Form.Item>
          <Button
            type="link"
            size="small"
            style={{ paddingInline: 0, marginBottom: 16 }}
            onClick={() => setUseRecovery(!useRecovery)}
            data-testid="step-up-switch"
          >
            {useRecovery ? t("stepUp.useAuthenticator") : t("stepUp.useRecovery")}
          </Button>
          <Button type="primary" htmlType="submit" block data-testid="step-up-submit">
            {t("stepUp.submit")}
          </Button>
        </Form>
      </div>
    </Modal>
  );
}
