import type { FuturesPosition } from "@meridian/contracts";
import { Button, Input, Segmented, Space, Table } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "./api.ts";

/** SPEC "position margin filter (default all)". */
export const POSITION_FILTER_KEY = "positionMarginFilter";
type Filter = "all" | "cross" | "isolated";

function TpslCell({ p, onDone }: { p: FuturesPosition; onDone: () => void }) {
  const { t } = useTranslation("futures");
  const [tp, setTp] = useState(p.takeProfit ?? "");
  const [sl, setSl] = useState(p.stopLoss ?? "");
  return (
    <Space size={4}>
      <Input
        size="small"
        aria-label={t("takeProfit")}
        placeholder={t("takeProfit")}
        value={tp}
        onChange={(e) => setTp(e.target.value)}
        style={{ width: 90 }}
      />
      <Input
        size="small"
        aria-label={t("stopLoss")}
        placeholder={t("stopLoss")}
        value={sl}
        onChange={(e) => setSl(e.target.value)}
        style={{ width: 90 }}
      />
      <Button
        size="small"
        onClick={() =>
          void futuresApi
            .tpsl({ symbol: p.symbol, ...(tp ? { takeProfit: tp } : {}), ...(sl ? { stopLoss: sl } : {}) })
            .then(onDone, () => {})
        }
      >
        {t("setTpsl")}
      </Button>
    </Space>
  );
}

export function PositionsTable({
  positions,
  onChange,
}: {
  positions: FuturesPosition[];
  onChange: () => void;
}) {
  const { t } = useTranslation("futures");
  const [filter, setFilter] = useState<Filter>("all");
  useEffect(() => {
    const v = localStorage.getItem(POSITION_FILTER_KEY);
    if (v === "cross" || v === "isolated") setFilter(v);
  }, []);
  const shown = positions.filter((p) => filter === "all" || p.marginMode === filter);
  return (
    <div>
      <Segmented
        value={filter}
        onChange={(v) => {
          setFilter(v as Filter);
          localStorage.setItem(POSITION_FILTER_KEY, String(v));
        }}
        options={[
          { value: "all", label: t("all") },
          { value: "cross", label: t("cross") },
          { value: "isolated", label: t("isolated") },
        ]}
      />
      <Table
        size="small"
        rowKey={(p) => `${p.symbol}:${p.positionSide}`}
        dataSource={shown}
        pagination={false}
        scroll={{ x: true }}
        data-testid="positions-table"
        columns={[
          { title: t("symbol"), render: (_, p) => `${p.symbol} ${p.leverage}x ${t(p.marginMode)}` },
          { title: t("size"), dataIndex: "quantity" },
          { title: t("entryPrice"), dataIndex: "entryPrice" },
          { title: t("markPrice"), dataIndex: "markPrice" },
          { title: t("liqPrice"), render: (_, p) => p.liquidationPrice ?? "--" },
          { title: t("margin"), dataIndex: "margin" },
          {
            title: t("marginRatio"),
            render: (_, p) => (p.marginRatio === null ? "--" : `${p.marginRatio}%`),
          },
          {
            title: t("pnl"),
            render: (_, p) => (
              <span data-testid="position-pnl" className={p.unrealisedPnl.startsWith("-") ? "down" : "up"}>
                {p.unrealisedPnl} ({p.roe}%)
              </span>
            ),
          },
          { title: t("tpsl"), render: (_, p) => <TpslCell p={p} onDone={onChange} /> },
          {
            title: t("close"),
            render: (_, p) => (
              <Button
                size="small"
                onClick={() => void futuresApi.closeAll(p.symbol).then(onChange, () => {})}
              >
                {t("marketClose")}
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}
