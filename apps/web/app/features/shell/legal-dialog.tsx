import { Button, Modal } from "antd";
import { useTranslation } from "react-i18next";
import { AntdConfig } from "./antd-config.tsx";

interface LegalDialogProps {
  open: boolean;
  onClose: () => void;
}

import { LegalSections } from "./legal-sections.tsx";

/** Terms of use, privacy notice and risk notice in one dialog (with its own antd provider: pages may have none). */
export function LegalDialog({ open, onClose }: LegalDialogProps) {
  const { t } = useTranslation("shell");
  return (
    <AntdConfig>
      <Modal
        open={open}
        onCancel={onClose}
        title={t("legal.title")}
        rootClassName="shell-legal"
        data-testid="legal-dialog"
        footer={
          <Button type="primary" onClick={onClose} data-testid="legal-dialog-close">
            {t("legal.close")}
          </Button>
        }
      >
        <LegalSections />
      </Modal>
    </AntdConfig>
  );
}
