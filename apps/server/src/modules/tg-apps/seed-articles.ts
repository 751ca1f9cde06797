/** Demo articles about seeded apps: slug, app, days ago, title, summary, body sections (heading, paragraph). */
export type SeedArticle = readonly [
  slug: string,
  app: string,
  daysAgo: number,
  title: string,
  summary: string,
  sections: readonly (readonly [heading: string, text: string])[],
];

export const SEED_ARTICLES: readonly SeedArticle[] = [
  [
    "how-to-swap-on-ston-fi",
    "ston-fi",
    1,
    "How to swap tokens on STON.fi",
    "Connect a wallet, pick a pair, check the price impact and confirm.",
    [
      [
        "Connect your wallet",
        "Open the mini app and choose Connect wallet. Approve the TON Connect request in Tonkeeper, Wallet or another supported wallet.",
      ],
      [
        "Pick the pair",
        "Choose the token you pay with and the one you receive. The app suggests a route and shows the expected amount.",
      ],
      [
        "Check slippage and impact",
        "Large orders in small pools move the price. Keep slippage tight and split big trades if the impact is high.",
      ],
    ],
  ],
  [
    "providing-liquidity-on-dedust",
    "dedust",
    3,
    "Providing liquidity on DeDust: what to expect",
    "Fees, impermanent loss and how stable pools differ from volatile ones.",
    [
      [
        "Where the yield comes from",
        "Every swap pays a fee that is shared among the pool's liquidity providers in proportion to their share.",
      ],
      [
        "Impermanent loss",
        "When prices diverge, a pool position is worth less than holding both tokens. Stable pools of pegged assets keep this small.",
      ],
    ],
  ],
  [
    "liquid-staking-explained",
    "tonstakers",
    5,
    "Liquid staking on TON explained",
    "Why tsTON, stTON and hTON exist and how they earn.",
    [
      [
        "Staking without locking",
        "Validators need TON locked for a round. Liquid staking pools deposits and gives you a token you can still use.",
      ],
      [
        "How the value grows",
        "The pool's token is redeemable for more TON over time as validator rewards arrive.",
      ],
      [
        "Risks",
        "Smart-contract bugs and validator penalties can reduce returns. Prefer audited protocols and spread deposits.",
      ],
    ],
  ],
  [
    "catizen-beginner-guide",
    "catizen",
    2,
    "Catizen beginner guide: merging and coins",
    "Get your café running fast with these merging habits.",
    [
      [
        "Merge early and often",
        "Two cats of the same level become one of the next level. Keep free slots so new cats never wait.",
      ],
      [
        "Idle income",
        "Your café earns while you are away, up to the storage limit. Collect before it fills.",
      ],
    ],
  ],
  [
    "wallet-send-crypto-in-chat",
    "wallet",
    4,
    "Sending crypto to a friend in any chat",
    "Use the attachment menu to send TON or USDT without an address.",
    [
      [
        "From the attachment menu",
        "In a chat, open the attachment menu, pick Wallet, enter an amount and confirm. Your friend receives a message to claim it.",
      ],
      [
        "Custodial or self-custodial",
        "The main Wallet balance is custodial; TON Space is self-custodial and needs your recovery phrase.",
      ],
    ],
  ],
  [
    "tonkeeper-security-checklist",
    "tonkeeper",
    7,
    "A security checklist for your Tonkeeper wallet",
    "Recovery phrase, passcode, and how to read a TON Connect request.",
    [
      [
        "Back up the phrase offline",
        "Write the 24 words on paper. Never type them into a website or a chat.",
      ],
      [
        "Read before you sign",
        "A TON Connect request shows what the transaction does. Decline anything you did not start.",
      ],
    ],
  ],
  [
    "getgems-first-nft",
    "getgems",
    6,
    "Buying your first NFT on Getgems",
    "Fixed-price sales, auctions and offers, and what fees apply.",
    [
      [
        "Fixed price or auction",
        "Some items sell instantly at a set price; auctions run until a deadline and the highest bid wins.",
      ],
      ["Fees", "A marketplace fee and the creator's royalty are taken from the sale price."],
    ],
  ],
  [
    "fragment-usernames",
    "fragment",
    9,
    "How collectible usernames work on Fragment",
    "Auction rules, ownership and assigning a name to your account.",
    [
      ["Auctions", "Each bid must beat the last by a minimum step. Bids near the end extend the auction."],
      [
        "Assigning the name",
        "Once you own a username, connect your wallet to your Telegram account and assign it to a profile, group or channel.",
      ],
    ],
  ],
  [
    "notcoin-after-launch",
    "notcoin",
    1,
    "Notcoin after its token launch",
    "From tapping to quests: what the app does today.",
    [
      [
        "From game to hub",
        "After the NOT token launch, the app turned into a place to discover other TON projects through quests.",
      ],
      ["Staying safe", "Only open the official bot. Fake copies ask for wallet connections and drain funds."],
    ],
  ],
  [
    "hamster-kombat-daily-combo",
    "hamster-kombat",
    2,
    "Hamster Kombat: daily cipher and combo, explained",
    "How the daily bonuses work and why upgrades matter more.",
    [
      ["The daily cipher", "Enter a word in Morse code by tapping to claim a bonus once a day."],
      ["Upgrade cards", "Cards raise your hourly profit. Buy those with the best profit per coin first."],
    ],
  ],
  [
    "blum-drop-game-tips",
    "blum",
    3,
    "Blum drop game tips",
    "Catch more points and avoid bombs in the drop game.",
    [
      [
        "Watch the edges",
        "Points fall faster near the edges; keep your finger near the centre and move outward.",
      ],
      ["Freeze items", "Ice items slow everything for a few seconds. Use that time to clear the screen."],
    ],
  ],
  [
    "dogs-rewards-explained",
    "dogs",
    8,
    "How DOGS rewarded Telegram account age",
    "Why older accounts received more, and what the app shows now.",
    [
      [
        "Account age",
        "Rewards were based on how long your Telegram account had existed and whether you had Premium.",
      ],
      ["Today", "The app shows your balance and community tasks; the token trades on exchanges."],
    ],
  ],
  [
    "combot-anti-spam-setup",
    "combot",
    10,
    "Setting up anti-spam with Combot",
    "Five settings every large group should switch on.",
    [
      ["Captcha for newcomers", "Ask new members to confirm they are human before they can post."],
      ["Link and media limits", "Restrict links and media for new members for their first day."],
      ["Reports", "Let members report messages to admins with a command."],
    ],
  ],
  [
    "rose-federations",
    "rose",
    12,
    "Rose federations: ban once, protect every group",
    "Share ban lists across groups you run.",
    [
      ["What a federation is", "A federation links several groups so a ban in one applies in all of them."],
      ["Admins", "Federation admins can ban; group admins keep their own local rules."],
    ],
  ],
  [
    "botfather-create-mini-app",
    "botfather",
    4,
    "Creating a mini app with BotFather",
    "Register a bot, set its Web App URL and add a menu button.",
    [
      [
        "Create the bot",
        "Send /newbot, choose a name and a username ending in bot, and keep the token secret.",
      ],
      [
        "Attach the mini app",
        "Use /newapp or the menu button settings to point at your HTTPS page. Telegram opens it in a web view.",
      ],
    ],
  ],
  [
    "storm-trade-leverage-basics",
    "storm-trade",
    6,
    "Leverage basics on Storm Trade",
    "Margin, liquidation price and funding in plain words.",
    [
      [
        "Margin and leverage",
        "Leverage multiplies exposure, not your deposit. A 10x position loses 10% of margin for each 1% move against you.",
      ],
      [
        "Liquidation",
        "When losses approach your margin, the position closes. The app shows that price before you open.",
      ],
      [
        "Funding",
        "Long and short positions pay each other a periodic fee that keeps the price close to the index.",
      ],
    ],
  ],
  [
    "evaa-borrowing-guide",
    "evaa",
    11,
    "Borrowing on EVAA without getting liquidated",
    "Health factor, collateral choice and when to repay.",
    [
      ["Health factor", "Keep it well above 1. Price drops in your collateral lower it."],
      ["Repay or add collateral", "Both raise the health factor; set an alert so you act in time."],
    ],
  ],
  [
    "tapswap-boosters",
    "tapswap",
    14,
    "TapSwap boosters: which to buy first",
    "Energy limit, recharge speed and taps per second compared.",
    [
      ["Energy limit", "A larger tank lets you tap longer per session."],
      ["Recharge speed", "Faster recharge helps if you check in often during the day."],
    ],
  ],
  [
    "major-stars-guide",
    "major",
    5,
    "Collecting stars in Major",
    "Tasks, games and invitations that raise your rating.",
    [
      ["Daily tasks", "Short tasks refresh each day and are the steadiest source of stars."],
      ["Games", "Mini games award stars once per day; play them after tasks."],
    ],
  ],
  [
    "crypto-bot-invoices",
    "crypto-bot",
    9,
    "Accepting payments with Crypto Bot invoices",
    "Create an invoice, share it and receive crypto in your bot.",
    [
      ["Create an invoice", "Choose the asset and amount, add a description, and share the link."],
      ["Automate", "Developers can create invoices through the API and receive a webhook when paid."],
    ],
  ],
  [
    "tonchess-ratings",
    "tonchess",
    1,
    "How ratings work in TON Chess",
    "Elo, provisional ratings and fair matchmaking.",
    [
      ["Elo", "Beating a stronger player earns more points than beating a weaker one."],
      ["Provisional games", "Your first games move your rating faster until it settles."],
    ],
  ],
  [
    "xrocket-cheques",
    "xrocket",
    13,
    "Giveaways with xRocket multi-cheques",
    "Split an amount among many people with one link.",
    [
      [
        "Create the cheque",
        "Set the total, the number of activations and optional conditions such as channel membership.",
      ],
      ["Share it", "Post the link; each eligible user can claim once until the cheque runs out."],
    ],
  ],
  [
    "ton-society-hackathons",
    "tonsociety",
    16,
    "Joining a TON Society hackathon",
    "Find an event, form a team and submit a project.",
    [
      ["Find an event", "The app lists upcoming hackathons with themes and prize pools."],
      ["Submit", "Projects are submitted with a repository and a short demo video before the deadline."],
    ],
  ],
];
