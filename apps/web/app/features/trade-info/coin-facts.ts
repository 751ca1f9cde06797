/**
 * What the pair information page (/trade-info) says about each listed coin beyond the
 * market data: its links and its supply cap. Descriptions are translations
 * (namespace `coins`, keyed by the base asset). Links are the projects' own sites.
 */
export interface CoinFacts {
  website: string;
  whitepaper: string;
  explorer: string;
  /** Whole coins; null for coins without a cap. */
  maxSupply: string | null;
  launched: number;
}

export const COIN_FACTS: Readonly<Record<string, CoinFacts>> = {
  BTC: {
    website: "https://bitcoin.org",
    whitepaper: "https://bitcoin.org/bitcoin.pdf",
    explorer: "https://mempool.space",
    maxSupply: "21000000",
    launched: 2009,
  },
  ETH: {
    website: "https://ethereum.org",
    whitepaper: "https://ethereum.org/whitepaper",
    explorer: "https://etherscan.io",
    maxSupply: null,
    launched: 2015,
  },
  XRP: {
    website: "https://xrpl.org",
    whitepaper: "https://xrpl.org/docs/concepts/consensus-protocol",
    explorer: "https://livenet.xrpl.org",
    maxSupply: "100000000000",
    launched: 2012,
  },
  BNB: {
    website: "https://www.bnbchain.org",
    whitepaper: "https://github.com/bnb-chain/whitepaper",
    explorer: "https://bscscan.com",
    maxSupply: "200000000",
    launched: 2017,
  },
  SOL: {
    website: "https://solana.com",
    whitepaper: "https://solana.com/solana-whitepaper.pdf",
    explorer: "https://explorer.solana.com",
    maxSupply: null,
    launched: 2020,
  },
  DOGE: {
    website: "https://dogecoin.com",
    whitepaper: "https://github.com/dogecoin/dogecoin",
    explorer: "https://dogechain.info",
    maxSupply: null,
    launched: 2013,
  },
  TRX: {
    website: "https://tron.network",
    whitepaper: "https://tron.network/static/doc/white_paper_v_2_0.pdf",
    explorer: "https://tronscan.org",
    maxSupply: null,
    launched: 2017,
  },
  ADA: {
    website: "https://cardano.org",
    whitepaper: "https://docs.cardano.org",
    explorer: "https://cardanoscan.io",
    maxSupply: "45000000000",
    launched: 2017,
  },
  LINK: {
    website: "https://chain.link",
    whitepaper: "https://chain.link/whitepaper",
    explorer: "https://etherscan.io/token/0x514910771af9ca656af840dff83e8264ecf986ca",
    maxSupply: "1000000000",
    launched: 2017,
  },
  AVAX: {
    website: "https://www.avax.network",
    whitepaper: "https://www.avalabs.org/whitepapers",
    explorer: "https://snowtrace.io",
    maxSupply: "720000000",
    launched: 2020,
  },
  TON: {
    website: "https://ton.org",
    whitepaper: "https://ton.org/whitepaper.pdf",
    explorer: "https://tonviewer.com",
    maxSupply: null,
    launched: 2021,
  },
  NOT: {
    website: "https://notco.in",
    whitepaper: "https://docs.notcoin.org",
    explorer: "https://tonviewer.com",
    maxSupply: "102719221714",
    launched: 2024,
  },
  LTC: {
    website: "https://litecoin.org",
    whitepaper: "https://litecoin.info/docs",
    explorer: "https://litecoinspace.org",
    maxSupply: "84000000",
    launched: 2011,
  },
};
