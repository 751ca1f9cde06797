/**
 * Generated artwork for apps without their own: a square icon (initials on a gradient)
 * and phone-sized screenshots in the app's colours. Deterministic per app, so the SVGs
 * cache forever and nothing is hot-linked from third parties.
 */

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function initials(name: string): string {
  const words = name.split(/[\s\-_.]+/).filter((w) => /[A-Za-z0-9]/.test(w));
  const letters = words.length >= 2 ? `${words[0]?.[0] ?? ""}${words[1]?.[0] ?? ""}` : name.slice(0, 2);
  return letters.toUpperCase();
}

function hues(slug: string): [number, number] {
  const h = hash(slug);
  const a = h % 360;
  return [a, (a + 40 + ((h >>> 9) % 60)) % 360];
}

export function iconSvg(slug: string, name: string): string {
  const [a, b] = hues(slug);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${escapeXml(name)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${a} 70% 52%)"/><stop offset="1" stop-color="hsl(${b} 72% 38%)"/></linearGradient></defs>
<rect width="96" height="96" rx="22" fill="url(#g)"/>
<circle cx="78" cy="18" r="26" fill="#fff" opacity=".12"/>
<text x="48" y="60" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="34" font-weight="700" fill="#fff">${escapeXml(initials(name))}</text>
</svg>`;
}

/** Screenshot `n` (1-based) of an app: a stylised phone screen, 360 x 640. */
export function screenshotSvg(slug: string, name: string, n: number): string {
  const [a, b] = hues(slug);
  const h = hash(`${slug}:${n}`);
  const rows = [0, 1, 2, 3]
    .map((i) => {
      const y = 250 + i * 88;
      const w = 150 + ((h >>> (i * 5)) % 120);
      return `<rect x="24" y="${y}" width="312" height="72" rx="14" fill="#fff" opacity=".14"/>
<circle cx="60" cy="${y + 36}" r="20" fill="hsl(${(a + i * 30) % 360} 80% 70%)"/>
<rect x="92" y="${y + 22}" width="${w}" height="12" rx="6" fill="#fff" opacity=".85"/>
<rect x="92" y="${y + 42}" width="${w - 50}" height="10" rx="5" fill="#fff" opacity=".5"/>`;
    })
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="640" viewBox="0 0 360 640" role="img" aria-label="${escapeXml(name)} ${n}">
<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${a} 60% 30%)"/><stop offset="1" stop-color="hsl(${b} 55% 14%)"/></linearGradient></defs>
<rect width="360" height="640" fill="url(#s)"/>
<rect x="0" y="0" width="360" height="56" fill="#000" opacity=".25"/>
<text x="24" y="36" font-family="Arial, Helvetica, sans-serif" font-size="20" font-weight="700" fill="#fff">${escapeXml(name)}</text>
<circle cx="180" cy="150" r="${56 + (h % 24)}" fill="hsl(${b} 85% 60%)" opacity=".85"/>
<text x="180" y="162" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="34" font-weight="700" fill="#fff">${escapeXml(initials(name))}</text>
${rows}
<rect x="24" y="590" width="312" height="34" rx="17" fill="hsl(${a} 90% 60%)"/>
</svg>`;
}
