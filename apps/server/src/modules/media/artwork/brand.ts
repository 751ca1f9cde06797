/**
 * Colours and shape language of each demo project: the known projects' own colours
 * and a motif that echoes their mark; any other project gets a palette and motif picked
 * from its slug (stable: the same project always looks the same).
 */

export type Motif =
  | "rings"
  | "hex"
  | "diamond"
  | "orbit"
  | "bars"
  | "petals"
  | "stack"
  | "wave"
  | "grid"
  | "spark"
  | "knot"
  | "shield";

export const MOTIFS: readonly Motif[] = [
  "rings",
  "hex",
  "diamond",
  "orbit",
  "bars",
  "petals",
  "stack",
  "wave",
  "grid",
  "spark",
  "knot",
  "shield",
];

export interface Brand {
  /** Background gradient, start and end. */
  from: string;
  to: string;
  /** The mark's colour on that background. */
  ink: string;
  /** A second colour for details. */
  accent: string;
  motif: Motif;
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** A small deterministic generator for the details of one picture. */
export function rng(seed: string): () => number {
  let s = hash(seed) || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 10_000) / 10_000;
  };
}

const KNOWN: Record<string, Brand> = {
  notcoin: { from: "#1c1c1e", to: "#000000", ink: "#ffd43a", accent: "#ffffff", motif: "rings" },
  "hamster-kombat": { from: "#f7b733", to: "#e0741b", ink: "#3b2412", accent: "#fff4d6", motif: "shield" },
  "hamster-kombat-season-2": {
    from: "#ffc94d",
    to: "#d9571c",
    ink: "#3b2412",
    accent: "#fff4d6",
    motif: "spark",
  },
  catizen: { from: "#a855f7", to: "#ec4899", ink: "#ffffff", accent: "#fde047", motif: "petals" },
  dogs: { from: "#f5f5f4", to: "#d6d3d1", ink: "#111111", accent: "#525252", motif: "knot" },
  blum: { from: "#222222", to: "#050505", ink: "#ffffff", accent: "#c7f45d", motif: "spark" },
  arbitrum: { from: "#2d374b", to: "#1b2433", ink: "#28a0f0", accent: "#ffffff", motif: "hex" },
  optimism: { from: "#ff0420", to: "#c2001a", ink: "#ffffff", accent: "#ffd6db", motif: "knot" },
  starknet: { from: "#0c0c4f", to: "#29296e", ink: "#ec796b", accent: "#ffffff", motif: "spark" },
  zksync: { from: "#1e69ff", to: "#8c8dfc", ink: "#ffffff", accent: "#0b0b2e", motif: "bars" },
  layerzero: { from: "#111111", to: "#2a2a2a", ink: "#ffffff", accent: "#a3a3a3", motif: "stack" },
  jupiter: { from: "#19232d", to: "#0c1117", ink: "#c7f284", accent: "#00bef0", motif: "orbit" },
  wormhole: { from: "#0b0b23", to: "#3b1d6e", ink: "#ffffff", accent: "#9f7aea", motif: "rings" },
  ethena: { from: "#0d0d0d", to: "#262626", ink: "#e5e5e5", accent: "#737373", motif: "wave" },
  eigenlayer: { from: "#1a0c6d", to: "#3a25b5", ink: "#ffffff", accent: "#9f92ff", motif: "grid" },
  "pudgy-penguins": { from: "#8fd3ff", to: "#00a3ff", ink: "#ffffff", accent: "#102a52", motif: "petals" },
  celestia: { from: "#7b2bf9", to: "#4a0fb0", ink: "#ffffff", accent: "#e3d1ff", motif: "orbit" },
  uniswap: { from: "#ff4fa3", to: "#ff007a", ink: "#ffffff", accent: "#ffe3f1", motif: "petals" },
  dydx: { from: "#1c1c28", to: "#2d2d44", ink: "#6966ff", accent: "#ffffff", motif: "bars" },
  aptos: { from: "#0a0a0a", to: "#1f2937", ink: "#ffffff", accent: "#34d399", motif: "wave" },
  sui: { from: "#4da2ff", to: "#2f6fd6", ink: "#ffffff", accent: "#dbeafe", motif: "diamond" },
  jito: { from: "#0f2a1f", to: "#071510", ink: "#3ee6a2", accent: "#ffffff", motif: "stack" },
  "pyth-network": { from: "#242235", to: "#110f1f", ink: "#e6dafe", accent: "#9a7ff0", motif: "rings" },
  hyperliquid: { from: "#0f1a1f", to: "#06262a", ink: "#97fce4", accent: "#ffffff", motif: "wave" },
  "magic-eden": { from: "#e42575", to: "#a50b5a", ink: "#ffffff", accent: "#ffd1e6", motif: "wave" },
  scroll: { from: "#ffeeda", to: "#ffd9a8", ink: "#a35b16", accent: "#eb7106", motif: "stack" },
  blast: { from: "#111111", to: "#000000", ink: "#fcfc03", accent: "#ffffff", motif: "bars" },
  "manta-network": { from: "#1b7fd4", to: "#39d2c0", ink: "#ffffff", accent: "#0b2545", motif: "wave" },
  dymension: { from: "#f5e7d7", to: "#e6cfb5", ink: "#1a1a1a", accent: "#8a6d4b", motif: "diamond" },
  polymarket: { from: "#2e5cff", to: "#1a3fcf", ink: "#ffffff", accent: "#cbd7ff", motif: "shield" },
  metamask: { from: "#f6851b", to: "#e2761b", ink: "#ffffff", accent: "#763d16", motif: "diamond" },
  opensea: { from: "#2081e2", to: "#1868b7", ink: "#ffffff", accent: "#d6ebff", motif: "wave" },
  zora: { from: "#a1c4fd", to: "#5b21b6", ink: "#ffffff", accent: "#fde68a", motif: "orbit" },
  linea: { from: "#121212", to: "#1f1f1f", ink: "#61dfff", accent: "#ffffff", motif: "stack" },
  monad: { from: "#836ef9", to: "#200052", ink: "#ffffff", accent: "#a0055d", motif: "diamond" },
  berachain: { from: "#814625", to: "#4a2511", ink: "#f9d71c", accent: "#ffffff", motif: "hex" },
  "pump-fun": { from: "#54d38c", to: "#1f9d55", ink: "#ffffff", accent: "#0b3d20", motif: "knot" },
  wallet: { from: "#2aa4ee", to: "#0a73c8", ink: "#ffffff", accent: "#d8efff", motif: "shield" },
  tonkeeper: { from: "#45aef5", to: "#1d7bd8", ink: "#ffffff", accent: "#10161f", motif: "diamond" },
  "ston-fi": { from: "#0098ea", to: "#005dbb", ink: "#ffffff", accent: "#b8e3ff", motif: "bars" },
  dedust: { from: "#f8c94a", to: "#f08c1c", ink: "#1b1b1b", accent: "#ffffff", motif: "spark" },
  getgems: { from: "#2f80ed", to: "#6a3de8", ink: "#ffffff", accent: "#ffd166", motif: "hex" },
  fragment: { from: "#1b2028", to: "#2a3441", ink: "#48a7f8", accent: "#ffffff", motif: "grid" },
  tonchess: { from: "#3a2f25", to: "#1e1812", ink: "#f0d9b5", accent: "#b58863", motif: "grid" },
  botfather: { from: "#37aee2", to: "#1e96c8", ink: "#ffffff", accent: "#0f3b52", motif: "shield" },
};

/** Pleasant gradient pairs for projects without colours of their own. */
const PALETTES: readonly Omit<Brand, "motif">[] = [
  { from: "#0ea5e9", to: "#2563eb", ink: "#ffffff", accent: "#e0f2fe" },
  { from: "#10b981", to: "#047857", ink: "#ffffff", accent: "#d1fae5" },
  { from: "#f59e0b", to: "#ea580c", ink: "#ffffff", accent: "#431407" },
  { from: "#8b5cf6", to: "#6d28d9", ink: "#ffffff", accent: "#ede9fe" },
  { from: "#ec4899", to: "#be185d", ink: "#ffffff", accent: "#fce7f3" },
  { from: "#14b8a6", to: "#0f766e", ink: "#ffffff", accent: "#ccfbf1" },
  { from: "#1e293b", to: "#0f172a", ink: "#38bdf8", accent: "#f8fafc" },
  { from: "#f43f5e", to: "#9f1239", ink: "#ffffff", accent: "#ffe4e6" },
  { from: "#84cc16", to: "#3f6212", ink: "#ffffff", accent: "#1a2e05" },
  { from: "#fde047", to: "#f59e0b", ink: "#422006", accent: "#ffffff" },
  { from: "#6366f1", to: "#0ea5e9", ink: "#ffffff", accent: "#e0e7ff" },
  { from: "#18181b", to: "#3f3f46", ink: "#f97316", accent: "#fafafa" },
  { from: "#22d3ee", to: "#0e7490", ink: "#ffffff", accent: "#083344" },
  { from: "#a3e635", to: "#16a34a", ink: "#052e16", accent: "#ffffff" },
  { from: "#c084fc", to: "#db2777", ink: "#ffffff", accent: "#fdf4ff" },
  { from: "#0f172a", to: "#1e3a8a", ink: "#fbbf24", accent: "#e2e8f0" },
];

/** Motifs a chain's projects lean to (one of them, by slug), so a chain's family resembles itself. */
const CHAIN_MOTIFS: Record<string, readonly Motif[]> = {
  ton: ["diamond", "rings", "shield", "spark"],
  solana: ["bars", "wave", "stack", "orbit"],
  ethereum: ["hex", "diamond", "knot", "grid"],
};

export function brandOf(slug: string, chain?: string): Brand {
  const known = KNOWN[slug];
  if (known !== undefined) return known;
  const h = hash(slug);
  const palette = PALETTES[h % PALETTES.length] ?? PALETTES[0];
  const family = CHAIN_MOTIFS[(chain ?? "").toLowerCase()] ?? MOTIFS;
  const motif = family[(h >>> 8) % family.length] ?? "rings";
  if (palette === undefined) throw new Error("artwork: no palette");
  return { ...palette, motif };
}
