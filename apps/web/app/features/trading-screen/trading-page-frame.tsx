import { vipTier } from "@meridian/domain";
import type { ReactNode } from "react";
import {
  type FeedState,
  MarketScreen,
  type MarketScreenProps,
  type MarketScreenState,
  type TradingScreenProps,
  useMarketScreen,
} from "./market-screen.tsx";
import type { FeeRates } from "./order-form-state.ts";
import { PhoneSideButtons, SimulationBarControls, type TradeAccess, useTradeAccess } from "./panel-parts.tsx";

/** What a spot-market page hands its screen (spot, margin): the symbol switcher's links too. */
export interface SpotPageProps extends TradingScreenProps {
  hrefFor: (symbol: string) => string;
}

const ratesOf = (tier: FeeRates): FeeRates => ({
  level: tier.level,
  makerPpm: tier.makerPpm,
  takerPpm: tier.takerPpm,
});
const BASE_FEE = ratesOf(vipTier(0));

/** The spot rates of the user's fee tier; VIP 0's (one object) until the tier is read. */
export function feeRatesOf(tier: FeeRates | null | undefined): FeeRates {
  return tier ? ratesOf(tier) : BASE_FEE;
}

/** A spot-market page's state: who is trading (login, simulation mode) and the market half's. */
export function useSpotPage(page: SpotPageProps, feed: FeedState, layout: "auto" | "phone") {
  const access = useTradeAccess(page.loggedIn);
  const screen = useMarketScreen(page.symbol, page.snapshot, feed, layout);
  return { access, screen };
}

/** What a spot order panel takes from the market half: the live market, a picked price, the side. */
export function spotOrderInputs(screen: MarketScreenState) {
  return {
    market: screen.market,
    picked: screen.picked,
    compact: screen.phone,
    side: screen.side,
    onSideChange: screen.setSide,
  };
}

export interface SpotScreenFrameProps
  extends Pick<
    MarketScreenProps,
    "className" | "layout" | "testId" | "heading" | "info" | "screen" | "fills" | "order" | "orders" | "guide"
  > {
  page: SpotPageProps;
  access: TradeAccess;
  /** After the simulation controls at the ticker bar's end (a read's failure and its retry). */
  extra?: ReactNode;
  children?: ReactNode;
}

/**
 * The market screen of a spot-market page (spot, margin): the simulation controls in the
 * ticker bar and the buy / sell buttons under a phone screen around the page's own parts.
 */
export function SpotScreenFrame({ page, access, extra, ...screenProps }: SpotScreenFrameProps) {
  return (
    <MarketScreen
      {...screenProps}
      snapshot={page.snapshot}
      dark={page.dark}
      hrefFor={page.hrefFor}
      extra={
        <>
          <SimulationBarControls access={access} />
          {extra}
        </>
      }
      phoneActions={<PhoneSideButtons onPick={screenProps.screen.openForm} />}
    />
  );
}
