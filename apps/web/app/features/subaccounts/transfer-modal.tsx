import {
  SUB_TRANSFER_DIRECTIONS,
  type SubAccountView,
  type SubTransferBody,
  WALLETS,
} from "@meridian/contracts";
import { Alert, Form, Input, Modal, Select } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { subErrorText, transferSub } from "../../api/subaccounts.ts";

interface TransferForm {
  direction: SubTransferBody["direction"];
  wallet: SubTransferBody["wallet"];
  asset: string;
  amount: string;
  symbol?: string;
}

/** Moves funds between the master and `sub`, the same wallet type on both sides. */
export function TransferModal({
  sub,
  onClose,
  onDone,
}: {
  sub: SubAccountView;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation("subaccounts");
  const [form] = Form.useForm<TransferForm>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const wallet = Form.useWatch("wallet", form);

  const submit = async (v: TransferForm) => {
    setBusy(true);
    setError(undefined);
    try {
      await transferSub({
        subUserId: sub.userId,
        direction: v.direction,
        wallet: v.wallet,
        asset: v.asset.trim(),
        amount: v.amount.trim(),
        ...(v.wallet === "ISOLATED_MARGIN" && v.symbol ? { symbol: v.symbol.trim() } : {}),
      });
      onDone();
    } catch (err) {
      setError(subErrorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t("transfer.title", { label: sub.label })}
      okText={t("transfer.submit")}
      cancelText={t("transfer.cancel")}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ "data-testid": "sub-transfer-submit" }}
      destroyOnHidden
    >
      {error && (
        <Alert type="error" title={error} style={{ marginBottom: 16 }} data-testid="sub-transfer-error" />
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ direction: "TO_SUB", wallet: "SPOT", asset: "USDT" }}
        data-testid="sub-transfer-form"
      >
        <Form.Item label={t("transfer.direction")} name="direction" rules={[{ required: true }]}>
          <Select
            data-testid="sub-transfer-direction"
            options={SUB_TRANSFER_DIRECTIONS.map((d) => ({ value: d, label: t(`transfer.directions.${d}`) }))}
          />
        </Form.Item>
        <Form.Item label={t("transfer.wallet")} name="wallet" rules={[{ required: true }]}>
          <Select options={WALLETS.map((w) => ({ value: w, label: t(`wallets.${w}`) }))} />
        </Form.Item>
        {wallet === "ISOLATED_MARGIN" ? (
          <Form.Item label={t("transfer.symbol")} name="symbol" rules={[{ required: true }]}>
            <Input placeholder="BTCUSDT" />
          </Form.Item>
        ) : null}
        <Form.Item
          label={t("transfer.asset")}
          name="asset"
          rules={[{ required: true }, { pattern: /^[A-Za-z0-9]{2,10}$/ }]}
        >
          <Input data-testid="sub-transfer-asset" />
        </Form.Item>
        <Form.Item
          label={t("transfer.amount")}
          name="amount"
          rules={[
            { required: true },
            { pattern: /^\d{1,20}(\.\d{1,18})?$/, message: t("transfer.amountRule") },
          ]}
        >
          <Input inputMode="decimal" data-testid="sub-transfer-amount" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
