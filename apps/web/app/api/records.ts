import type {
  ClosedPositionRecord,
  FundingRecord,
  FuturesOrder,
  FuturesOrderDetail,
  FuturesTrade,
  PorProofView,
  PorSummary,
  StatementFilterType,
  StatementPage,
} from "@meridian/contracts";
import { FuturesPath, PAPER_HEADER, PorPath, StatementPath } from "@meridian/contracts";
import { accountClient } from "./account-client.ts";

const api = () => accountClient().api;
const name = (path: string) => path.replace(/^\//, "");
const opts = { silent: true };

/** The statement filters (numbers spelled out: the contract's coerced `z.input` is `unknown`). */
export interface StatementFilters {
  type?: StatementFilterType | undefined;
  asset?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export interface ListQuery {
  symbol?: string | undefined;
  /** One margin family (`usdt`, `coin`); both when absent. */
  family?: "usdt" | "coin" | undefined;
  limit: number;
  before?: number | undefined;
}

/** Browser calls of /transac, /order/mcp, /record/mcp and /proof-of-reserves. */
export const recordsApi = {
  statement: (f: StatementFilters & { limit: number; before?: number | undefined }) =>
    api().get<StatementPage>(name(StatementPath.BILLS), { ...f }, opts),
  futuresOrder: (id: number) =>
    api().get<FuturesOrderDetail>(name(FuturesPath.ORDER.replace(":id", String(id))), undefined, opts),
  futuresOrders: (q: ListQuery, open: boolean) =>
    api().get<FuturesOrder[]>(
      name(open ? FuturesPath.OPEN_ORDERS : FuturesPath.ORDER_HISTORY),
      { ...q },
      opts,
    ),
  futuresTrades: (q: ListQuery) => api().get<FuturesTrade[]>(name(FuturesPath.TRADES), { ...q }, opts),
  funding: (q: ListQuery) => api().get<FundingRecord[]>(name(FuturesPath.FUNDING), { ...q }, opts),
  positionHistory: (q: ListQuery) =>
    api().get<ClosedPositionRecord[]>(name(FuturesPath.POSITION_HISTORY), { ...q }, opts),
  porSummary: () => api().get<PorSummary | null>(name(PorPath.SUMMARY), undefined, opts),
  porProof: () => api().get<PorProofView>(name(PorPath.PROOF), undefined, opts),
  porBuild: () => api().post<PorSummary>(name(PorPath.BUILD), {}, opts),
};

/**
 * The statement as CSV. The export needs the `paptrading` header, which a plain link
 * cannot send: fetched, then saved through an object URL.
 */
export async function downloadStatementCsv(f: StatementFilters): Promise<void> {
  const query: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== "") query[k] = v;
  const blob = await api().download(name(StatementPath.EXPORT), query, {
    silent: true,
    headers: { [PAPER_HEADER]: "1", accept: "text/csv" },
  });
  saveBlob(blob, "meridian-transactions.csv");
}

/** Saves a Blob as a file through a temporary link. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
