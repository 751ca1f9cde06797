import { Button, Form, Modal } from "antd";
import { useTranslation } from "react-i18next";
import accountAntdHref from "../../styles/account-antd.generated.css?url";
import { SecondFactorItem } from "./security/recovery-codes.tsx";
import { endStepUp } from "./step-up-events.ts";

/** Asks for the authenticator's code (or a recovery code) before a sensitive change is repeated. */
export function StepUpDialog() {
  const { t } = useTranslation("account");
  const submit = (v: { googleCode?: string; recoveryCode?: string }) =>
    endStepUp(
      v.recoveryCode !== undefined
        ? { recoveryCode: v.recoveryCode.trim() }
        : { googleCode: v.googleCode ?? "" },
    );
  return (
    <Modal open title={t("stepUp.title")} footer={null} onCancel={() => endStepUp(undefined)} destroyOnHidden>
      <link rel="stylesheet" href={accountAntdHref} precedence="antd" />
      <div data-testid="step-up-dialog">
        <p>{t("stepUp.body")}</p>
        <Form layout="vertical" onFinish={submit}>
          <SecondFactorItem testId="step-up-code" />
          <Button type="primary" htmlType="submit" block data-testid="step-up-submit">
            {t("stepUp.submit")}
          </Button>
        </Form>
      </div>
    </Modal>
  );
}
