import { type Brand, brandOf, rng } from "./brand.ts";
import { escapeXml, markSvg } from "./logo.ts";

/**
 * Generated app screenshots (phone screens, 720 x 1280 drawn at 360 x 640) that show what
 * an app of its category looks like: a DeFi app a swap and a price chart, a game its
 * board, a wallet its balance and tokens, a group bot its chat and settings. Figures
 * come from the app's slug, so each app's screens differ and never change.
 */

const FONT = "Noto Sans, DejaVu Sans, Arial, sans-serif";
const f = (n: number) => Number(n.toFixed(2));

interface Ctx {
  b: Brand;
  r: () => number;
  name: string;
  slug: string;
}

const text = (x: number, y: number, size: number, fill: string, body: string, extra = "") =>
  `<text x="${x}" y="${y}"${extra.includes("font-family") ? "" : ` font-family="${FONT}"`} font-size="${size}" fill="${fill}" ${extra}>${escapeXml(body)}</text>`;

const money = (n: number, digits = 2) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function frame(c: Ctx, title: string, body: string, dark = true): string {
  const bg = dark ? "#0f1115" : "#f4f5f7";
  const fg = dark ? "#ffffff" : "#111827";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="1280" viewBox="0 0 360 640" role="img" aria-label="${escapeXml(`${c.name}: ${title}`)}">
<defs><linearGradient id="hd" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c.b.from}"/><stop offset="1" stop-color="${c.b.to}"/></linearGradient></defs>
<rect width="360" height="640" fill="${bg}"/>
${text(20, 22, 12, fg, "9:41", 'font-weight="600"')}
<rect x="300" y="12" width="22" height="11" rx="3" fill="none" stroke="${fg}" opacity=".7"/><rect x="302" y="14" width="15" height="7" rx="1.5" fill="${fg}" opacity=".7"/>
<g transform="translate(16 36)"><rect width="30" height="30" rx="8" fill="url(#hd)"/><g transform="translate(3 3) scale(.0938)">${markSvg(c.b, c.slug)}</g></g>
${text(56, 57, 16, fg, c.name, 'font-weight="700"')}
${text(344, 57, 13, fg, title, 'text-anchor="end" opacity=".55"')}
${body}
</svg>`;
}

function button(x: number, y: number, w: number, label: string, c: Ctx): string {
  return `<rect x="${x}" y="${y}" width="${w}" height="44" rx="22" fill="url(#hd)"/>${text(x + w / 2, y + 28, 15, c.b.ink, label, 'text-anchor="middle" font-weight="700"')}`;
}

function card(x: number, y: number, w: number, h: number, dark = true): string {
  return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="16" fill="${dark ? "#1a1d24" : "#ffffff"}"/>`;
}

const TOKENS = ["TON", "USDT", "NOT", "DOGS", "STON", "HMSTR", "CATI", "tsTON", "jUSDT", "SCALE"];
const TOKEN_COLOURS = [
  "#0098ea",
  "#26a17b",
  "#ffd43a",
  "#e5e5e5",
  "#2f80ed",
  "#f7b733",
  "#a855f7",
  "#14b8a6",
  "#f43f5e",
  "#84cc16",
];

function tokenRow(c: Ctx, y: number, i: number, dark = true): string {
  const k = (i + Math.floor(c.r() * 4)) % TOKENS.length;
  const amount = c.r() * (k === 1 ? 900 : 4000);
  const change = (c.r() - 0.4) * 12;
  const fg = dark ? "#ffffff" : "#111827";
  return `<circle cx="40" cy="${y + 22}" r="16" fill="${TOKEN_COLOURS[k]}"/>
${text(66, y + 18, 14, fg, TOKENS[k] ?? "TON", 'font-weight="600"')}
${text(66, y + 36, 12, fg, `$${money(0.5 + c.r() * 6, 3)}`, 'opacity=".5"')}
${text(336, y + 18, 14, fg, money(amount), 'text-anchor="end" font-weight="600"')}
${text(336, y + 36, 12, change >= 0 ? "#22c55e" : "#ef4444", `${change >= 0 ? "+" : ""}${change.toFixed(2)}%`, 'text-anchor="end"')}`;
}

function chart(c: Ctx, x: number, y: number, w: number, h: number): string {
  const pts: string[] = [];
  let v = 0.5;
  for (let i = 0; i <= 40; i++) {
    v = Math.min(0.95, Math.max(0.05, v + (c.r() - 0.47) * 0.14));
    pts.push(`${f(x + (i * w) / 40)},${f(y + h - v * h)}`);
  }
  const line = pts.join(" ");
  return `<polygon points="${x},${y + h} ${line} ${x + w},${y + h}" fill="${c.b.from}" opacity=".22"/>
<polyline points="${line}" fill="none" stroke="${c.b.accent === "#ffffff" ? c.b.from : c.b.to}" stroke-width="2.5" stroke-linejoin="round"/>`;
}

// ---- Open League (DeFi) ----
function defiSwap(c: Ctx): string {
  const pay = 10 + Math.floor(c.r() * 490);
  const rate = 3 + c.r() * 4;
  return frame(
    c,
    "Swap",
    `${card(16, 84, 328, 96)}${text(32, 110, 12, "#9ca3af", "You pay")}${text(32, 150, 30, "#ffffff", String(pay), 'font-weight="700"')}
<rect x="244" y="124" width="84" height="34" rx="17" fill="#2a2e37"/><circle cx="262" cy="141" r="11" fill="#0098ea"/>${text(280, 146, 14, "#ffffff", "TON", 'font-weight="600"')}
<circle cx="180" cy="190" r="18" fill="#2a2e37" stroke="#0f1115" stroke-width="4"/><path d="M180 182 v16 m-6 -6 l6 6 l6 -6" stroke="#ffffff" stroke-width="2" fill="none"/>
${card(16, 200, 328, 96)}${text(32, 226, 12, "#9ca3af", "You receive")}${text(32, 266, 30, "#ffffff", money(pay * rate), 'font-weight="700"')}
<rect x="236" y="240" width="92" height="34" rx="17" fill="#2a2e37"/><circle cx="254" cy="257" r="11" fill="#26a17b"/>${text(272, 262, 14, "#ffffff", "USDT", 'font-weight="600"')}
${text(24, 326, 12, "#9ca3af", "Rate")}${text(336, 326, 12, "#ffffff", `1 TON = ${rate.toFixed(3)} USDT`, 'text-anchor="end"')}
${text(24, 350, 12, "#9ca3af", "Price impact")}${text(336, 350, 12, "#22c55e", `${(c.r() * 0.4).toFixed(2)}%`, 'text-anchor="end"')}
${text(24, 374, 12, "#9ca3af", "Network fee")}${text(336, 374, 12, "#ffffff", `≈ ${(0.05 + c.r() * 0.2).toFixed(2)} TON`, 'text-anchor="end"')}
${card(16, 400, 328, 120)}${text(32, 424, 12, "#9ca3af", "TON / USDT · 24h")}${chart(c, 32, 436, 296, 70)}
${button(16, 560, 328, "Swap", c)}`,
  );
}

function defiPools(c: Ctx): string {
  const rows = Array.from({ length: 5 }, (_, i) => {
    const y = 150 + i * 76;
    const a = TOKENS[(i * 3 + 1) % TOKENS.length] ?? "TON";
    const b2 = TOKENS[(i * 5 + 2) % TOKENS.length] ?? "USDT";
    return `${card(16, y, 328, 64)}<circle cx="42" cy="${y + 32}" r="13" fill="${TOKEN_COLOURS[(i * 3 + 1) % 10]}"/><circle cx="58" cy="${y + 32}" r="13" fill="${TOKEN_COLOURS[(i * 5 + 2) % 10]}" stroke="#1a1d24" stroke-width="2"/>
${text(82, y + 28, 14, "#ffffff", `${a} / ${b2}`, 'font-weight="600"')}${text(82, y + 46, 12, "#9ca3af", `TVL $${money(0.4 + c.r() * 30, 1)}M`)}
${text(328, y + 28, 15, "#22c55e", `${(2 + c.r() * 28).toFixed(1)}%`, 'text-anchor="end" font-weight="700"')}${text(328, y + 46, 11, "#9ca3af", "APR", 'text-anchor="end"')}`;
  }).join("");
  return frame(
    c,
    "Pools",
    `<rect x="16" y="84" width="328" height="48" rx="14" fill="url(#hd)"/>${text(32, 106, 12, c.b.ink, "Total value locked", 'opacity=".8"')}${text(32, 124, 16, c.b.ink, `$${money(20 + c.r() * 300, 1)}M`, 'font-weight="700"')}${rows}`,
  );
}

function defiStake(c: Ctx): string {
  const staked = 100 + c.r() * 5000;
  const apy = 3 + c.r() * 3;
  return frame(
    c,
    "Stake",
    `<rect x="16" y="84" width="328" height="150" rx="20" fill="url(#hd)"/>
${text(36, 118, 13, c.b.ink, "Staked balance", 'opacity=".8"')}${text(36, 158, 32, c.b.ink, `${money(staked)} TON`, 'font-weight="700"')}
${text(36, 190, 13, c.b.ink, `APY ${apy.toFixed(2)}%  ·  +${money((staked * apy) / 36500, 3)} TON today`, 'opacity=".85"')}
${card(16, 250, 328, 150)}${text(32, 276, 12, "#9ca3af", "Rewards · 30 days")}${chart(c, 32, 290, 296, 96)}
${card(16, 416, 158, 80)}${text(32, 444, 12, "#9ca3af", "Validators")}${text(32, 474, 20, "#ffffff", String(80 + Math.floor(c.r() * 300)), 'font-weight="700"')}
${card(186, 416, 158, 80)}${text(202, 444, 12, "#9ca3af", "Next round")}${text(202, 474, 20, "#ffffff", `${Math.floor(2 + c.r() * 16)}h ${Math.floor(c.r() * 60)}m`, 'font-weight="700"')}
${button(16, 520, 158, "Stake", c)}<rect x="186" y="520" width="158" height="44" rx="22" fill="#2a2e37"/>${text(265, 548, 15, "#ffffff", "Unstake", 'text-anchor="middle" font-weight="600"')}`,
  );
}

// ---- Games ----
function gameBoard(c: Ctx): string {
  const chess = c.slug.includes("chess");
  const cells: string[] = [];
  const n = chess ? 8 : 7;
  const size = 320 / n;
  const gems = [c.b.from, c.b.accent, "#f43f5e", "#22c55e", "#fbbf24", "#38bdf8"];
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const cx = 20 + x * size;
      const cy = 150 + y * size;
      if (chess) {
        cells.push(
          `<rect x="${f(cx)}" y="${f(cy)}" width="${f(size)}" height="${f(size)}" fill="${(x + y) % 2 ? "#b58863" : "#f0d9b5"}"/>`,
        );
      } else {
        const g = gems[Math.floor(c.r() * gems.length)] ?? "#fff";
        cells.push(`<rect x="${f(cx + 3)}" y="${f(cy + 3)}" width="${f(size - 6)}" height="${f(size - 6)}" rx="10" fill="#1f2430"/>
<circle cx="${f(cx + size / 2)}" cy="${f(cy + size / 2)}" r="${f(size / 2 - 10)}" fill="${g}"/><circle cx="${f(cx + size / 2 - 5)}" cy="${f(cy + size / 2 - 6)}" r="4" fill="#fff" opacity=".55"/>`);
      }
    }
  if (chess) {
    const pieces = "♜♞♝♛♚♝♞♜";
    for (let x = 0; x < 8; x++) {
      cells.push(
        text(
          f(20 + x * size + size / 2),
          f(150 + size * 0.78),
          30,
          "#1b1b1b",
          pieces[x] ?? "",
          'text-anchor="middle"',
        ),
      );
      cells.push(
        text(f(20 + x * size + size / 2), f(150 + size * 1.78), 30, "#1b1b1b", "♟", 'text-anchor="middle"'),
      );
      cells.push(
        text(
          f(20 + x * size + size / 2),
          f(150 + size * 6.78),
          30,
          "#ffffff",
          "♙",
          'text-anchor="middle" stroke="#1b1b1b" stroke-width=".6"',
        ),
      );
      cells.push(
        text(
          f(20 + x * size + size / 2),
          f(150 + size * 7.78),
          30,
          "#ffffff",
          pieces[x] ?? "",
          'text-anchor="middle" stroke="#1b1b1b" stroke-width=".6"',
        ),
      );
    }
  }
  const score = Math.floor(1000 + c.r() * 90_000);
  return frame(
    c,
    chess ? "Rated game" : `Level ${Math.floor(3 + c.r() * 60)}`,
    `${card(16, 80, 156, 56)}${text(32, 104, 11, "#9ca3af", chess ? "You · 1 480" : "Score")}${text(32, 126, 18, "#ffffff", chess ? "04:31" : money(score, 0), 'font-weight="700"')}
${card(188, 80, 156, 56)}${text(204, 104, 11, "#9ca3af", chess ? "Opponent · 1 512" : "Moves left")}${text(204, 126, 18, "#ffffff", chess ? "03:58" : String(Math.floor(5 + c.r() * 20)), 'font-weight="700"')}
${cells.join("")}
${button(16, 580, 328, chess ? "Offer draw" : "Boost ×2", c)}`,
  );
}

function gameMap(c: Ctx): string {
  const nodes = Array.from({ length: 7 }, (_, i) => ({
    x: f(80 + (i % 2 ? 200 : 0) + c.r() * 40 - 20),
    y: 580 - i * 68,
  }));
  const path = nodes.map((p, i) => `${i === 0 ? "M" : "L"}${p.x} ${p.y}`).join(" ");
  const done = 2 + Math.floor(c.r() * 3);
  return frame(
    c,
    "World map",
    `<rect x="0" y="76" width="360" height="564" fill="url(#hd)" opacity=".35"/>
<path d="${path}" fill="none" stroke="#ffffff" stroke-width="6" stroke-dasharray="2 12" stroke-linecap="round" opacity=".8"/>
${nodes
  .map(
    (p, i) =>
      `<circle cx="${p.x}" cy="${p.y}" r="24" fill="${i < done ? c.b.from : i === done ? "#fbbf24" : "#2a2e37"}" stroke="#ffffff" stroke-width="3"/>${text(p.x, p.y + 6, 16, "#ffffff", String(i + 1), 'text-anchor="middle" font-weight="700"')}${i < done ? text(p.x, p.y - 30, 13, "#fbbf24", "★★★", 'text-anchor="middle"') : ""}`,
  )
  .join("")}
${card(16, 84, 328, 52)}${text(32, 116, 14, "#ffffff", `Energy ${Math.floor(20 + c.r() * 80)}/100`, 'font-weight="600"')}<rect x="180" y="104" width="148" height="12" rx="6" fill="#2a2e37"/><rect x="180" y="104" width="${f(40 + c.r() * 100)}" height="12" rx="6" fill="#22c55e"/>`,
  );
}

function leaderboard(c: Ctx, title: string): string {
  const names = ["alex_ton", "mira", "kenji", "sofia.t", "dmitry", "ayesha", "lucas", "nora", "omar"];
  const offset = Math.floor(c.r() * names.length);
  const rows = Array.from({ length: 7 }, (_, i) => {
    const y = 196 + i * 56;
    const pts = Math.floor((9 - i) * 12_000 * (0.8 + c.r() * 0.4));
    return `${card(16, y, 328, 48)}${text(36, y + 30, 14, i < 3 ? "#fbbf24" : "#9ca3af", String(i + 1), 'font-weight="700"')}
<circle cx="72" cy="${y + 24}" r="14" fill="hsl(${Math.floor(c.r() * 360)} 60% 55%)"/>${text(96, y + 29, 14, "#ffffff", names[(i + offset) % names.length] ?? "", 'font-weight="600"')}
${text(328, y + 29, 14, "#ffffff", money(pts, 0), 'text-anchor="end"')}`;
  }).join("");
  return frame(
    c,
    title,
    `<rect x="16" y="84" width="328" height="96" rx="20" fill="url(#hd)"/>${text(36, 116, 13, c.b.ink, "Your rank", 'opacity=".8"')}${text(36, 156, 30, c.b.ink, `#${Math.floor(100 + c.r() * 9000)}`, 'font-weight="700"')}${text(324, 156, 15, c.b.ink, `${money(2000 + c.r() * 40_000, 0)} pts`, 'text-anchor="end" font-weight="600"')}${rows}`,
  );
}

// ---- Web3 (wallets, NFTs, explorers) ----
function walletHome(c: Ctx): string {
  const total = 200 + c.r() * 12_000;
  const rows = Array.from({ length: 5 }, (_, i) => tokenRow(c, 330 + i * 56, i)).join("");
  const actions = ["Send", "Receive", "Swap", "Buy"];
  return frame(
    c,
    "Wallet",
    `<rect x="16" y="84" width="328" height="140" rx="22" fill="url(#hd)"/>
${text(36, 116, 13, c.b.ink, "Total balance", 'opacity=".8"')}${text(36, 162, 36, c.b.ink, `$${money(total)}`, 'font-weight="700"')}
${text(36, 196, 13, c.b.ink, `+$${money(total * 0.021)} (2.1%) today`, 'opacity=".85"')}
${actions
  .map(
    (a, i) =>
      `<circle cx="${52 + i * 85}" cy="262" r="22" fill="#1f2430"/><path d="M${52 + i * 85 - 7} 262 h14 m-7 -7 v14" stroke="${c.b.from}" stroke-width="2.5" stroke-linecap="round"/>${text(52 + i * 85, 302, 12, "#d1d5db", a, 'text-anchor="middle"')}`,
  )
  .join("")}
${rows}`,
  );
}

function walletSend(c: Ctx): string {
  const amount = (1 + c.r() * 300).toFixed(2);
  const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "0", "⌫"];
  return frame(
    c,
    "Send",
    `${card(16, 84, 328, 60)}${text(32, 108, 12, "#9ca3af", "To")}${text(32, 130, 14, "#ffffff", `UQB${Math.floor(c.r() * 1e6).toString(16)}…${Math.floor(c.r() * 1e4).toString(16)}`, 'font-family="DejaVu Sans Mono, monospace"')}
${text(180, 230, 48, "#ffffff", amount, 'text-anchor="middle" font-weight="700"')}${text(180, 262, 16, "#9ca3af", `TON · ≈ $${money(Number(amount) * 5.4)}`, 'text-anchor="middle"')}
${keys.map((k, i) => text(70 + (i % 3) * 110, 340 + Math.floor(i / 3) * 56, 24, "#ffffff", k, 'text-anchor="middle"')).join("")}
${button(16, 572, 328, "Continue", c)}`,
  );
}

function nftGrid(c: Ctx): string {
  const tiles = Array.from({ length: 6 }, (_, i) => {
    const x = 16 + (i % 2) * 168;
    const y = 84 + Math.floor(i / 2) * 180;
    const h1 = Math.floor(c.r() * 360);
    return `<rect x="${x}" y="${y}" width="160" height="168" rx="16" fill="#1a1d24"/>
<rect x="${x + 8}" y="${y + 8}" width="144" height="110" rx="12" fill="hsl(${h1} 70% 55%)"/>
<circle cx="${x + 80}" cy="${y + 63}" r="${f(22 + c.r() * 14)}" fill="hsl(${(h1 + 150) % 360} 80% 70%)" opacity=".9"/>
<polygon points="${polygon3(x + 80, y + 63, 16 + c.r() * 8)}" fill="#ffffff" opacity=".7"/>
${text(x + 12, y + 138, 12, "#ffffff", `#${Math.floor(c.r() * 9999)}`, 'font-weight="600"')}${text(x + 12, y + 156, 12, "#9ca3af", `${(1 + c.r() * 80).toFixed(1)} TON`)}`;
  }).join("");
  return frame(c, "Collection", tiles);
}

function polygon3(cx: number, cy: number, r: number): string {
  return [0, 1, 2]
    .map((i) => {
      const a = (i * 2 * Math.PI) / 3 - Math.PI / 2;
      return `${f(cx + r * Math.cos(a))},${f(cy + r * Math.sin(a))}`;
    })
    .join(" ");
}

// ---- Management and utilities (chat bots) ----
function botChat(c: Ctx, lines: readonly [boolean, string][], title: string): string {
  let y = 96;
  const bubbles = lines
    .map(([mine, body]) => {
      const w = Math.min(260, 24 + body.length * 7.2);
      const x = mine ? 344 - w : 16;
      const out = `<rect x="${f(x)}" y="${y}" width="${f(w)}" height="40" rx="14" fill="${mine ? c.b.from : "#1f2430"}"/>${text(f(x + 12), y + 25, 13, mine ? c.b.ink : "#e5e7eb", body)}`;
      y += 52;
      return out;
    })
    .join("");
  return frame(
    c,
    title,
    `${bubbles}<rect x="16" y="572" width="276" height="44" rx="22" fill="#1f2430"/>${text(34, 599, 13, "#6b7280", "Message")}<circle cx="320" cy="594" r="22" fill="url(#hd)"/><path d="M312 594 l16 -8 l-5 8 l5 8 z" fill="${c.b.ink}"/>`,
  );
}

function settings(c: Ctx, title: string, items: readonly string[]): string {
  const rows = items
    .map((label, i) => {
      const y = 92 + i * 58;
      const on = c.r() > 0.35;
      return `${card(16, y, 328, 48)}${text(32, y + 30, 14, "#ffffff", label)}<rect x="282" y="${y + 14}" width="44" height="22" rx="11" fill="${on ? c.b.from : "#374151"}"/><circle cx="${on ? 315 : 293}" cy="${y + 25}" r="8" fill="#ffffff"/>`;
    })
    .join("");
  return frame(c, title, rows);
}

function stats(c: Ctx): string {
  const bars = Array.from({ length: 12 }, (_, i) => {
    const h = 20 + c.r() * 120;
    return `<rect x="${32 + i * 25}" y="${f(330 - h)}" width="16" height="${f(h)}" rx="4" fill="${i === 11 ? c.b.from : "#374151"}"/>`;
  }).join("");
  return frame(
    c,
    "Statistics",
    `${card(16, 84, 158, 84)}${text(32, 112, 12, "#9ca3af", "Members")}${text(32, 148, 24, "#ffffff", money(1000 + c.r() * 90_000, 0), 'font-weight="700"')}
${card(186, 84, 158, 84)}${text(202, 112, 12, "#9ca3af", "Messages today")}${text(202, 148, 24, "#ffffff", money(100 + c.r() * 9000, 0), 'font-weight="700"')}
${card(16, 180, 328, 170)}${text(32, 206, 12, "#9ca3af", "New members · 12 weeks")}${bars}
${card(16, 366, 328, 190)}${text(32, 392, 12, "#9ca3af", "Spam blocked")}${chart(c, 32, 410, 296, 120)}`,
  );
}

// ---- Play-to-earn ----
function tapper(c: Ctx): string {
  const coins = Math.floor(10_000 + c.r() * 9_000_000);
  return frame(
    c,
    "Tap",
    `${text(180, 128, 14, "#9ca3af", "Balance", 'text-anchor="middle"')}${text(180, 168, 36, "#ffffff", money(coins, 0), 'text-anchor="middle" font-weight="700"')}
<circle cx="180" cy="340" r="130" fill="url(#hd)" opacity=".25"/><circle cx="180" cy="340" r="112" fill="url(#hd)"/>
<g transform="translate(100 260) scale(.625)">${markSvg(c.b, c.slug)}</g>
${text(262, 232, 22, "#fbbf24", `+${Math.floor(1 + c.r() * 12)}`, 'font-weight="700"')}${text(96, 262, 18, "#fbbf24", `+${Math.floor(1 + c.r() * 12)}`, 'font-weight="700" opacity=".7"')}
${card(16, 500, 328, 56)}${text(32, 534, 14, "#ffffff", "⚡ Energy", 'font-weight="600"')}<rect x="140" y="522" width="188" height="12" rx="6" fill="#2a2e37"/><rect x="140" y="522" width="${f(60 + c.r() * 128)}" height="12" rx="6" fill="#fbbf24"/>
${[0, 1, 2].map((i) => `${card(16 + i * 112, 568, 104, 52)}${text(68 + i * 112, 600, 13, "#ffffff", ["Boost", "Tasks", "Friends"][i] ?? "", 'text-anchor="middle" font-weight="600"')}`).join("")}`,
  );
}

function tasks(c: Ctx): string {
  const items = [
    "Join the channel",
    "Follow on X",
    "Invite 3 friends",
    "Watch today's video",
    "Connect a wallet",
    "Daily check-in",
  ];
  const rows = items
    .map((label, i) => {
      const y = 150 + i * 66;
      const done = c.r() > 0.5;
      return `${card(16, y, 328, 56)}<circle cx="44" cy="${y + 28}" r="14" fill="${done ? "#22c55e" : "#2a2e37"}"/>${done ? `<path d="M37 ${y + 28} l5 5 l9 -10" stroke="#fff" stroke-width="2.5" fill="none"/>` : ""}
${text(70, y + 26, 14, "#ffffff", label, 'font-weight="600"')}${text(70, y + 44, 12, "#fbbf24", `+${money(500 + Math.floor(c.r() * 20) * 500, 0)}`)}
<rect x="262" y="${y + 14}" width="66" height="28" rx="14" fill="${done ? "#2a2e37" : c.b.from}"/>${text(295, y + 33, 12, done ? "#9ca3af" : c.b.ink, done ? "Done" : "Go", 'text-anchor="middle" font-weight="600"')}`;
    })
    .join("");
  return frame(
    c,
    "Tasks",
    `<rect x="16" y="84" width="328" height="52" rx="16" fill="url(#hd)"/>${text(32, 116, 14, c.b.ink, `Season ${Math.floor(1 + c.r() * 4)} · ${Math.floor(3 + c.r() * 25)} days left`, 'font-weight="600"')}${rows}`,
  );
}

// ---- Social ----
function profileCard(c: Ctx): string {
  const names = ["Anna, 27", "Marco, 31", "Leyla, 25", "Tom, 29", "Yuki, 26"];
  const h = Math.floor(c.r() * 360);
  return frame(
    c,
    "Discover",
    `<rect x="24" y="88" width="312" height="400" rx="24" fill="hsl(${h} 45% 45%)"/>
<circle cx="180" cy="230" r="70" fill="hsl(${h} 40% 70%)"/><rect x="100" y="300" width="160" height="150" rx="80" fill="hsl(${h} 40% 70%)"/>
<rect x="24" y="388" width="312" height="100" rx="0" fill="#000" opacity=".35"/>${text(44, 428, 22, "#ffffff", names[Math.floor(c.r() * names.length)] ?? "", 'font-weight="700"')}${text(44, 456, 13, "#e5e7eb", `${(1 + c.r() * 9).toFixed(1)} km away · likes hiking, TON`)}
<circle cx="110" cy="548" r="32" fill="#1f2430"/><path d="M98 536 l24 24 m0 -24 l-24 24" stroke="#ef4444" stroke-width="4" stroke-linecap="round"/>
<circle cx="250" cy="548" r="32" fill="url(#hd)"/><path d="M250 562 c-16 -12 -22 -18 -22 -26 a10 10 0 0 1 22 -4 a10 10 0 0 1 22 4 c0 8 -6 14 -22 26z" fill="${c.b.ink}"/>`,
  );
}

function chatList(c: Ctx): string {
  const names = [
    "TON Builders",
    "Design club",
    "Hackathon 2026",
    "Weekend hikes",
    "Alice",
    "Night owls",
    "Crypto news",
  ];
  const msgs = [
    "See you at 7?",
    "New event posted",
    "Voting ends tonight",
    "Photos are up!",
    "Sounds good",
    "Who is in?",
    "Pinned a message",
  ];
  const rows = names
    .map((n, i) => {
      const y = 88 + i * 70;
      const unread = c.r() > 0.5 ? Math.floor(1 + c.r() * 30) : 0;
      return `<circle cx="44" cy="${y + 30}" r="24" fill="hsl(${Math.floor(c.r() * 360)} 55% 55%)"/>${text(80, y + 24, 15, "#ffffff", n, 'font-weight="600"')}${text(80, y + 46, 13, "#9ca3af", msgs[i] ?? "")}
${text(340, y + 24, 11, "#9ca3af", `${Math.floor(8 + c.r() * 13)}:${String(Math.floor(c.r() * 60)).padStart(2, "0")}`, 'text-anchor="end"')}${unread ? `<rect x="${316 - String(unread).length * 4}" y="${y + 34}" width="${24 + String(unread).length * 4}" height="20" rx="10" fill="${c.b.from}"/>${text(328, y + 48, 11, c.b.ink, String(unread), 'text-anchor="middle" font-weight="700"')}` : ""}
<rect x="80" y="${y + 64}" width="264" height="1" fill="#1f2430"/>`;
    })
    .join("");
  return frame(c, "Chats", rows);
}

function events(c: Ctx): string {
  const items = ["Builders meetup", "Hackathon finals", "Community AMA", "Design sprint"];
  const rows = items
    .map((label, i) => {
      const y = 88 + i * 132;
      const h = Math.floor(c.r() * 360);
      return `${card(16, y, 328, 120)}<rect x="16" y="${y}" width="328" height="62" rx="16" fill="hsl(${h} 60% 45%)"/><rect x="16" y="${y + 46}" width="328" height="16" fill="hsl(${h} 60% 45%)"/>
${text(32, y + 86, 15, "#ffffff", label, 'font-weight="700"')}${text(32, y + 106, 12, "#9ca3af", `${["Mon", "Wed", "Fri", "Sat"][i]} · ${Math.floor(40 + c.r() * 900)} going`)}
<rect x="262" y="${y + 78}" width="66" height="30" rx="15" fill="${c.b.from}"/>${text(295, y + 98, 12, c.b.ink, "Join", 'text-anchor="middle" font-weight="600"')}`;
    })
    .join("");
  return frame(c, "Events", rows);
}

/** The three screens of an app of `category` (1 to 7, docs/product.md §3). */
export function screenshotSvgs(slug: string, name: string, category: number): string[] {
  const c = (n: number): Ctx => ({ b: brandOf(slug), r: rng(`${slug}:screen:${n}`), name, slug });
  // Three screens of the category first (what the detail page shows), then two more
  // behind its "Show more", as a store listing has.
  return [...categoryScreens(c, name, category), ...moreScreens(c, category)];
}

function moreScreens(c: (n: number) => Ctx, category: number): string[] {
  switch (category) {
    case 1:
      return [stats(c(4)), leaderboard(c(5), "Top pools")];
    case 2:
      return [tasks(c(4)), profileCard(c(5))];
    case 3:
      return [stats(c(4)), chatList(c(5))];
    case 6:
      return [profileCard(c(4)), events(c(5))];
    default:
      return [tasks(c(4)), leaderboard(c(5), "Top users")];
  }
}

function categoryScreens(c: (n: number) => Ctx, name: string, category: number): string[] {
  switch (category) {
    case 1:
      return [defiSwap(c(1)), defiPools(c(2)), defiStake(c(3))];
    case 2:
      return [gameBoard(c(1)), gameMap(c(2)), leaderboard(c(3), "Leaderboard")];
    case 3:
      return [walletHome(c(1)), walletSend(c(2)), nftGrid(c(3))];
    case 4:
      return [
        botChat(
          c(1),
          [
            [false, "👋 Welcome! I keep this group tidy."],
            [true, "/settings"],
            [false, "Anti-spam: on · Captcha: on"],
            [true, "/warn @spammer"],
            [false, "@spammer warned (1/3)"],
            [false, "New member: please solve the captcha"],
          ],
          "Bot",
        ),
        settings(c(2), "Settings", [
          "Anti-spam filter",
          "Join captcha",
          "Night mode",
          "Link protection",
          "Welcome message",
          "Reports to admins",
          "Slow mode",
          "Log channel",
        ]),
        stats(c(3)),
      ];
    case 5:
      return [
        botChat(
          c(1),
          [
            [true, "/start"],
            [false, `Hi! ${name} is ready.`],
            [true, "Convert report.docx to PDF"],
            [false, "Done: report.pdf (248 KB)"],
            [true, "Thanks!"],
            [false, "Anything else? Send a file."],
          ],
          "Chat",
        ),
        settings(c(2), "Preferences", [
          "Language: English",
          "Notifications",
          "Inline mode",
          "Compact answers",
          "Save history",
          "Dark theme",
        ]),
        stats(c(3)),
      ];
    case 6:
      return [tapper(c(1)), tasks(c(2)), leaderboard(c(3), "League")];
    default:
      return [profileCard(c(1)), chatList(c(2)), events(c(3))];
  }
}
