import type { AirdropNewsInput, FaqItem } from "@meridian/contracts";

type NewsSeed = {
  input: Omit<Partial<AirdropNewsInput>, "publishedAt"> & { slug: string; title: string };
} & ({ daysAgo: number } | { date: string });

/** News items, most linked to an airdrop; recent ones are placed relative to seeding. */
export const SEED_NEWS: readonly NewsSeed[] = [
  {
    daysAgo: 0,
    input: {
      slug: "monad-claim-window-opens",
      airdropSlug: "monad",
      title: "Monad airdrop claims are open",
      summary: "Eligible wallets can now check and claim their MON allocation on the official portal.",
      body: "<p>The claim window runs for thirty days. Check the address of the portal carefully: copies are circulating.</p>",
      translations: {
        "zh-CN": { title: "Monad 空投开放领取", summary: "符合条件的钱包现在可以在官方门户查询并领取 MON。" },
        ar: {
          title: "فتح باب المطالبة بإنزال Monad",
          summary: "يمكن للمحافظ المؤهلة الآن التحقق من حصتها من MON والمطالبة بها عبر البوابة الرسمية.",
        },
      },
    },
  },
  {
    daysAgo: 1,
    input: {
      slug: "zora-final-days",
      airdropSlug: "zora",
      title: "Zora rewards season enters its final days",
      summary: "Creators and collectors have a few days left to qualify before the snapshot.",
    },
  },
  {
    daysAgo: 2,
    input: {
      slug: "linea-lxp-conversion",
      airdropSlug: "linea",
      title: "Linea explains how LXP converts to LINEA",
      summary: "The allocation combines LXP from quests with LXP-L earned by providing liquidity.",
    },
  },
  {
    daysAgo: 3,
    input: {
      slug: "opensea-sea-rewards",
      airdropSlug: "opensea",
      title: "OpenSea adds token trading to its rewards programme",
      summary: "Swaps on OpenSea now earn XP towards SEA alongside NFT trades.",
    },
  },
  {
    daysAgo: 4,
    input: {
      slug: "blum-points-season",
      airdropSlug: "blum",
      title: "Blum opens a new points season in its Telegram app",
      summary: "Daily farming and drop-game points count towards the BLUM token.",
    },
  },
  {
    daysAgo: 5,
    input: {
      slug: "metamask-rewards-announced",
      airdropSlug: "metamask",
      title: "MetaMask rewards season is about to start",
      summary: "Swaps, bridges and perpetual trades in the wallet will earn points.",
    },
  },
  {
    daysAgo: 6,
    input: {
      slug: "kaito-creator-leaderboards",
      airdropSlug: "kaito",
      title: "Kaito launches new creator leaderboards",
      summary: "Projects distribute tokens to creators ranked by Yaps.",
    },
  },
  {
    daysAgo: 8,
    input: {
      slug: "polymarket-token-signals",
      airdropSlug: "polymarket",
      title: "Polymarket confirms plans for POLY",
      summary: "The team said a token and an airdrop are planned after its US relaunch.",
    },
  },
  {
    daysAgo: 10,
    input: {
      slug: "airdrop-safety-checklist",
      title: "Airdrop safety checklist",
      summary: "Five habits that keep your wallet safe while farming airdrops.",
      body: "<ul><li>Use official links only.</li><li>Never share your seed phrase.</li><li>Revoke unused approvals.</li><li>Use a separate wallet for claims.</li><li>Beware of fake support accounts.</li></ul>",
    },
  },
  {
    date: "2024-06-17",
    input: {
      slug: "zksync-airdrop-live",
      airdropSlug: "zksync",
      title: "ZKsync distributes ZK to early users",
      summary: "About 17.5% of the supply went to users and contributors.",
    },
  },
  {
    date: "2024-05-16",
    input: {
      slug: "notcoin-lists",
      airdropSlug: "notcoin",
      title: "Notcoin lists on major exchanges",
      summary: "NOT became one of the largest gaming tokens by volume on its first day.",
    },
  },
  {
    date: "2023-03-23",
    input: {
      slug: "arbitrum-airdrop-day",
      airdropSlug: "arbitrum",
      title: "Arbitrum airdrop goes live",
      summary: "ARB became claimable by eligible wallets and the DAO took over governance.",
    },
  },
  {
    date: "2024-12-17",
    input: {
      slug: "pengu-launch",
      airdropSlug: "pudgy-penguins",
      title: "Pudgy Penguins launches PENGU on Solana",
      summary: "NFT holders and many crypto communities received PENGU.",
    },
  },
];

const EN_FAQ: FaqItem[] = [
  {
    question: "What is a crypto airdrop?",
    answer:
      "An airdrop is a distribution of free tokens to wallets or accounts, usually to reward early users or to spread ownership of a new network.",
  },
  {
    question: "Are airdrops really free?",
    answer:
      "Most are free to claim, but some ask for activity such as trading, deposits or social tasks. A real airdrop never asks for your seed phrase or a payment to unlock tokens.",
  },
  {
    question: "What do the statuses Upcoming, Active and Closed mean?",
    answer:
      "Upcoming airdrops have not started yet, Active ones accept participants until their end date, and Closed ones have ended. Closed pages stay online for reference.",
  },
  {
    question: "How is the estimated value calculated?",
    answer:
      "It is a rough figure per eligible participant based on public allocation data and the token price. Real allocations vary a lot between wallets.",
  },
  {
    question: "What is the listing price prediction?",
    answer:
      "It is our editorial estimate of where the token may trade when it lists. It is educational content, not financial advice.",
  },
  {
    question: "How do I claim an airdrop safely?",
    answer:
      "Use only the official links on the airdrop page, check the web address before connecting a wallet, and consider a separate wallet for claims.",
  },
  {
    question: "Do I need identity verification?",
    answer:
      "Some exclusive airdrops and token sales require KYC. Look for the KYC requirement tag on each airdrop; verifying your Meridian account also unlocks deposits and trading.",
  },
  {
    question: "How can I trade a token after the airdrop?",
    answer:
      "Create a free Meridian account, verify it, deposit your tokens and trade them on the spot market once the pair is listed.",
  },
];

/** The library FAQ (8 questions) per locale; locales without rows get English. */
export const SEED_HOME_FAQ: Record<string, FaqItem[]> = {
  en: EN_FAQ,
  "zh-CN": [
    {
      question: "什么是加密货币空投？",
      answer: "空投是向钱包或账户免费分发代币，通常用于奖励早期用户或分散新网络的所有权。",
    },
    {
      question: "空投真的免费吗？",
      answer:
        "大多数空投可以免费领取，但有些需要交易、充值或完成社交任务。真正的空投绝不会索要助记词或要求付款解锁代币。",
    },
    {
      question: "即将开始、进行中和已结束是什么意思？",
      answer:
        "即将开始的空投尚未开始，进行中的空投在结束日期前接受参与，已结束的空投已经截止。已结束的页面仍保留供参考。",
    },
    {
      question: "预估价值是如何计算的？",
      answer: "这是根据公开的分配数据和代币价格，对每位合格参与者给出的粗略估算。实际分配因钱包而异。",
    },
    {
      question: "上市价格预测是什么？",
      answer: "这是我们对代币上市后可能交易价格的编辑估算，仅供学习参考，不构成投资建议。",
    },
    {
      question: "如何安全地领取空投？",
      answer: "只使用空投页面上的官方链接，连接钱包前核对网址，并考虑使用单独的钱包领取。",
    },
    {
      question: "需要身份认证吗？",
      answer:
        "部分专属空投和代币销售需要 KYC。请查看每个空投的 KYC 标签；完成 Meridian 账户认证后即可充值和交易。",
    },
    {
      question: "空投后如何交易代币？",
      answer: "注册免费的 Meridian 账户并完成认证，充值代币，交易对上线后即可在现货市场交易。",
    },
  ],
  ja: [
    {
      question: "暗号資産のエアドロップとは？",
      answer:
        "エアドロップはウォレットやアカウントにトークンを無料で配布することで、初期ユーザーへの報酬や新しいネットワークの保有者を広げるために行われます。",
    },
    {
      question: "エアドロップは本当に無料ですか？",
      answer:
        "多くは無料で受け取れますが、取引や入金、SNS タスクが必要な場合があります。本物のエアドロップがシードフレーズや支払いを求めることはありません。",
    },
    {
      question: "開始前・実施中・終了とは？",
      answer:
        "開始前はまだ始まっていないもの、実施中は終了日まで参加できるもの、終了は締め切られたものです。終了したページも参照用に残ります。",
    },
    {
      question: "推定価値はどのように計算しますか？",
      answer:
        "公開されている配布データとトークン価格に基づく、対象者 1 人あたりの概算です。実際の配布量はウォレットによって大きく異なります。",
    },
    {
      question: "上場価格予測とは？",
      answer:
        "上場時にトークンが取引される可能性のある価格についての編集部の見積もりです。教育目的の情報であり、投資助言ではありません。",
    },
    {
      question: "安全に受け取るには？",
      answer:
        "エアドロップページの公式リンクのみを使い、ウォレット接続前に URL を確認し、受け取り専用のウォレットの利用も検討してください。",
    },
    {
      question: "本人確認は必要ですか？",
      answer:
        "一部の限定エアドロップやトークンセールでは KYC が必要です。各エアドロップの KYC タグを確認してください。Meridian アカウントの認証で入金と取引も可能になります。",
    },
    {
      question: "エアドロップ後にトークンを取引するには？",
      answer:
        "無料の Meridian アカウントを作成して認証し、トークンを入金すれば、ペアの上場後に現物市場で取引できます。",
    },
  ],
  ar: [
    {
      question: "ما هو الإنزال الجوي للعملات المشفرة؟",
      answer:
        "الإنزال الجوي هو توزيع رموز مجانية على المحافظ أو الحسابات، عادةً لمكافأة المستخدمين الأوائل أو لتوسيع ملكية شبكة جديدة.",
    },
    {
      question: "هل الإنزالات الجوية مجانية حقًا؟",
      answer:
        "معظمها مجاني، لكن بعضها يتطلب نشاطًا مثل التداول أو الإيداع أو المهام الاجتماعية. الإنزال الحقيقي لا يطلب عبارة الاسترداد أو دفعة لفتح الرموز أبدًا.",
    },
    {
      question: "ماذا تعني الحالات: قادم ونشط ومغلق؟",
      answer:
        "القادم لم يبدأ بعد، والنشط يقبل المشاركين حتى تاريخ الانتهاء، والمغلق قد انتهى. تبقى صفحات الإنزالات المغلقة متاحة للرجوع إليها.",
    },
    {
      question: "كيف تُحسب القيمة التقديرية؟",
      answer:
        "هي رقم تقريبي لكل مشارك مؤهل بناءً على بيانات التوزيع العامة وسعر الرمز. تختلف التوزيعات الفعلية كثيرًا بين المحافظ.",
    },
    {
      question: "ما هو توقع سعر الإدراج؟",
      answer:
        "هو تقديرنا التحريري للسعر الذي قد يتداول به الرمز عند إدراجه. إنه محتوى تعليمي وليس نصيحة مالية.",
    },
    {
      question: "كيف أطالب بالإنزال بأمان؟",
      answer:
        "استخدم الروابط الرسمية في صفحة الإنزال فقط، وتحقق من العنوان قبل ربط المحفظة، وفكر في استخدام محفظة منفصلة للمطالبة.",
    },
    {
      question: "هل أحتاج إلى التحقق من الهوية؟",
      answer:
        "تتطلب بعض الإنزالات الحصرية وعمليات بيع الرموز التحقق من الهوية. ابحث عن وسم KYC في كل إنزال؛ كما يتيح التحقق من حساب Meridian الإيداع والتداول.",
    },
    {
      question: "كيف أتداول الرمز بعد الإنزال؟",
      answer:
        "أنشئ حساب Meridian مجانيًا، وتحقق منه، وأودع رموزك، ثم تداولها في السوق الفورية بعد إدراج الزوج.",
    },
  ],
};

/** Localised descriptions for some airdrops; everything else falls back to English. */
export const SEED_TRANSLATIONS: Record<string, Record<string, { description: string }>> = {
  notcoin: {
    "zh-CN": { description: "Notcoin 最初是 Telegram 里的点击赚币游戏，让数百万玩家成为 TON 代币的持有者。" },
    ja: {
      description:
        "Notcoin は Telegram 内のタップして稼ぐゲームとして始まり、数百万人のプレイヤーを TON トークンの保有者にしました。",
    },
    ar: {
      description:
        "بدأت Notcoin كلعبة نقر لكسب المكافآت داخل تيليجرام وحوّلت ملايين اللاعبين إلى حاملين لرمز على شبكة TON.",
    },
    ru: {
      description:
        "Notcoin начинался как тапалка в Telegram и сделал миллионы игроков держателями токена в сети TON.",
    },
    es: {
      description:
        "Notcoin empezó como un juego de tocar para ganar dentro de Telegram y convirtió a millones de jugadores en poseedores de un token de TON.",
    },
  },
  arbitrum: {
    "zh-CN": { description: "Arbitrum DAO 的治理代币，按积分表空投给这个乐观汇总的早期用户。" },
    ja: {
      description:
        "Arbitrum DAO のガバナンストークンで、オプティミスティック・ロールアップの初期ユーザーにポイント表に基づいて配布されました。",
    },
    ar: {
      description:
        "رمز الحوكمة لمنظمة Arbitrum DAO، وُزّع على المستخدمين الأوائل لهذا التجميع المتفائل وفق جدول نقاط.",
    },
  },
  monad: {
    "zh-CN": { description: "一条并行执行的 EVM 一层网络，目标每秒一万笔交易，奖励其社区和链上用户。" },
    ar: {
      description:
        "شبكة طبقة أولى متوافقة مع EVM بتنفيذ متوازٍ تستهدف عشرة آلاف معاملة في الثانية، وتكافئ مجتمعها ومستخدميها.",
    },
  },
  "hamster-kombat": {
    ru: {
      description:
        "Кликер в Telegram, где игроки управляют виртуальной криптобиржей в роли хомяка-CEO; первый сезон завершился аирдропом HMSTR в сети TON.",
    },
  },
};
