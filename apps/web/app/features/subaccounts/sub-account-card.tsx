import type { SubAccountView } from "@meridian/contracts";
import { formatDecimal } from "@meridian/domain";
import { Button, Card, Space, Tag } from "antd";
import { useTranslation } from "react-i18next";

/** Trailing zeros off a ledger amount ("1000.50000000" -> "1000.5"). */
const trim = (v: string) => (v.includes(".") ? v.replace(/0+$/, "").replace(/\.$/, "") : v);

/** One sub-account: label, virtual e-mail, state, paper balances per wallet, actions. */
export function SubAccountCard({
  sub,
  onTransfer,
  onFreeze,
  onSwitch,
}: {
  sub: SubAccountView;
  onTransfer: () => void;
  onFreeze: () => void;
  onSwitch: () => void;
}) {
  const { t } = useTranslation("subaccounts");
  const wallets = Object.entries(sub.wallets).filter(([, list]) => list.length > 0);
  return (
    <Card
      size="small"
      data-testid="sub-card"
      data-sub-id={sub.userId}
      title={
        <span>
          {sub.label}{" "}
          {sub.frozen ? (
            <Tag color="red" data-testid="sub-frozen">
              {t("list.frozen")}
            </Tag>
          ) : null}
        </span>
      }
      style={{ marginBottom: 12 }}
    >
      <p className="sub-email">
        <bdi dir="ltr">{sub.email}</bdi>
      </p>
      <p>
        {t("list.total")}{" "}
        <strong data-testid="sub-total" dir="ltr">
          {formatDecimal(sub.totalUsdt, 2)} USDT
        </strong>
      </p>
      {wallets.length === 0 ? (
        <p className="sub-empty">{t("list.empty")}</p>
      ) : (
        <ul className="sub-wallets" data-testid="sub-wallets">
          {wallets.map(([name, list]) => {
            const [kind, pair] = name.split(":");
            return (
              <li key={name} data-wallet={name}>
                <span className="sub-wallet-name">
                  {t(`wallets.${kind}`)}
                  {pair ? ` ${pair}` : ""}
                </span>
                <span dir="ltr">
                  {list
                    .map(
                      (b) =>
                        `${trim(b.amount)}${b.locked !== "0" && /[1-9]/.test(b.locked) ? ` (+${trim(b.locked)})` : ""} ${b.asset}`,
                    )
                    .join(" · ")}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <Space wrap>
        <Button onClick={onTransfer} data-testid="sub-transfer">
          {t("list.transfer")}
        </Button>
        <Button onClick={onFreeze} data-testid="sub-freeze">
          {sub.frozen ? t("list.unfreeze") : t("list.freeze")}
        </Button>
        <Button type="primary" onClick={onSwitch} disabled={sub.frozen} data-testid="sub-switch">
          {t("list.switch")}
        </Button>
      </Space>
    </Card>
  );
}
