import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";

/**
 * A new password (8 to 128 characters) and its confirmation, which must match: the
 * `pwd` field and `confirmName` of the surrounding form (sign-up, reset, change).
 */
export function NewPasswordFields({
  label,
  confirmName,
  testId,
  confirmTestId,
}: {
  label: string;
  confirmName: string;
  testId: string;
  confirmTestId: string;
}) {
  const { t } = useTranslation("account");
  return (
    <>
      <Form.Item label={label} name="pwd" rules={[{ required: true }, { min: 8, max: 128 }]}>
        <Input.Password autoComplete="new-password" data-testid={testId} />
      </Form.Item>
      <Form.Item
        label={t("register.confirmPassword")}
        name={confirmName}
        dependencies={["pwd"]}
        rules={[
          { required: true },
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              value === getFieldValue("pwd")
                ? Promise.resolve()
                : Promise.reject(new Error(t("register.mismatch"))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid={confirmTestId} />
      </Form.Item>
    </>
  );
}
