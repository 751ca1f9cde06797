import type { FuturesAccount } from "@meridian/contracts";
import { WalletTransferButton } from "../trading-screen/wallet-transfer.tsx";

/**
 * The futures pages' transfer: the wallet-transfer dialog opened on spot -> futures
 * (either end may be changed there), with the wallet's known maxTransferOut.
 */
export function TransferButton({
  account,
  onDone,
  primary = false,
}: {
  account: FuturesAccount | null;
  onDone: () => void;
  primary?: boolean;
}) {
  return (
    <WalletTransferButton
      from="SPOT"
      to="FUTURES"
      asset="USDT"
      futuresMax={account?.maxTransferOut}
      onDone={onDone}
      primary={primary}
      testId="futures-transfer-open"
    />
  );
}
