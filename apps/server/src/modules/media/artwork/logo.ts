import { type Brand, brandOf, rng } from "./brand.ts";

/**
 * Generated logos and covers: a geometric mark in the project's colours and motif
 * (never initials), varied by the project's slug so two projects with the same motif
 * still differ in count, angle and proportion.
 */

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const f = (n: number) => Number(n.toFixed(2));

function polygon(cx: number, cy: number, r: number, sides: number, rotate = 0): string {
  const pts: string[] = [];
  for (let i = 0; i < sides; i++) {
    const a = rotate + (i * 2 * Math.PI) / sides - Math.PI / 2;
    pts.push(`${f(cx + r * Math.cos(a))},${f(cy + r * Math.sin(a))}`);
  }
  return pts.join(" ");
}

/** The mark, drawn in a 256 x 256 box around (128, 128). */
export function markSvg(b: Brand, seed: string): string {
  const r = rng(seed);
  const ink = b.ink;
  const acc = b.accent;
  switch (b.motif) {
    case "rings": {
      const n = 2 + Math.floor(r() * 3);
      const rings = Array.from({ length: n }, (_, i) => {
        const rad = 84 - i * (60 / n);
        return `<circle cx="128" cy="128" r="${f(rad)}" fill="none" stroke="${i % 2 ? acc : ink}" stroke-width="${f(14 - i * 2)}"/>`;
      }).join("");
      return `${rings}<circle cx="128" cy="128" r="${f(16 + r() * 10)}" fill="${ink}"/>`;
    }
    case "hex": {
      const rot = r() > 0.5 ? 0 : Math.PI / 6;
      return `<polygon points="${polygon(128, 128, 86, 6, rot)}" fill="${ink}"/>
<polygon points="${polygon(128, 128, 52, 6, rot)}" fill="${b.to}" opacity=".9"/>
<polygon points="${polygon(128, 128, 26, 6, rot)}" fill="${acc}"/>`;
    }
    case "diamond": {
      const w = 62 + r() * 18;
      return `<path d="M128 40 L${f(128 + w)} 118 L128 216 L${f(128 - w)} 118 Z" fill="${ink}"/>
<path d="M128 40 L128 216 L${f(128 - w)} 118 Z" fill="${acc}" opacity=".35"/>
<path d="M${f(128 - w)} 118 L${f(128 + w)} 118" stroke="${b.to}" stroke-width="6"/>`;
    }
    case "orbit": {
      const tilt = Math.floor(r() * 60) - 30;
      const moons = 1 + Math.floor(r() * 3);
      const dots = Array.from({ length: moons }, (_, i) => {
        const a = (i * 2 * Math.PI) / moons + r();
        return `<circle cx="${f(128 + 92 * Math.cos(a))}" cy="${f(128 + 38 * Math.sin(a))}" r="${f(10 + r() * 6)}" fill="${acc}"/>`;
      }).join("");
      return `<circle cx="128" cy="128" r="46" fill="${ink}"/>
<g transform="rotate(${tilt} 128 128)"><ellipse cx="128" cy="128" rx="92" ry="38" fill="none" stroke="${ink}" stroke-width="8" opacity=".8"/>${dots}</g>`;
    }
    case "bars": {
      const n = 3;
      const skew = 18 + r() * 14;
      return Array.from({ length: n }, (_, i) => {
        const y = 62 + i * 48;
        const dir = i === 1 ? -1 : 1;
        return `<path d="M${f(56 + (dir > 0 ? skew : 0))} ${y} L${f(200 + (dir > 0 ? 0 : skew))} ${y} L${f(200 + (dir > 0 ? -skew : 0))} ${y + 32} L${f(56 + (dir > 0 ? 0 : -skew) + (dir > 0 ? 0 : skew))} ${y + 32} Z" fill="${i === 1 ? acc : ink}"/>`;
      }).join("");
    }
    case "petals": {
      const n = 4 + Math.floor(r() * 5);
      const len = 66 + r() * 14;
      const petals = Array.from(
        { length: n },
        (_, i) =>
          `<ellipse cx="128" cy="${f(128 - len / 2)}" rx="${f(14 + r() * 8)}" ry="${f(len / 2)}" fill="${i % 2 ? acc : ink}" opacity="${i % 2 ? 0.85 : 1}" transform="rotate(${f((i * 360) / n)} 128 128)"/>`,
      ).join("");
      return `${petals}<circle cx="128" cy="128" r="18" fill="${b.to}"/>`;
    }
    case "stack": {
      const n = 3 + Math.floor(r() * 2);
      return Array.from({ length: n }, (_, i) => {
        const y = 70 + i * (120 / n);
        return `<path d="M128 ${f(y)} L206 ${f(y + 34)} L128 ${f(y + 68)} L50 ${f(y + 34)} Z" fill="${i === 0 ? ink : i % 2 ? acc : ink}" opacity="${f(1 - i * 0.18)}"/>`;
      })
        .reverse()
        .join("");
    }
    case "wave": {
      const n = 3;
      const amp = 16 + r() * 12;
      return Array.from({ length: n }, (_, i) => {
        const y = 88 + i * 40;
        return `<path d="M40 ${y} C 84 ${f(y - amp * 2)}, 128 ${f(y + amp * 2)}, 172 ${y} S 216 ${f(y - amp)}, 216 ${y}" fill="none" stroke="${i === 1 ? acc : ink}" stroke-width="18" stroke-linecap="round"/>`;
      }).join("");
    }
    case "grid": {
      const cells: string[] = [];
      for (let y = 0; y < 4; y++)
        for (let x = 0; x < 4; x++) {
          const on = r() > 0.35 || (x + y) % 3 === 0;
          cells.push(
            `<rect x="${52 + x * 40}" y="${52 + y * 40}" width="32" height="32" rx="${r() > 0.5 ? 16 : 8}" fill="${on ? ink : acc}" opacity="${on ? 1 : 0.35}"/>`,
          );
        }
      return cells.join("");
    }
    case "spark": {
      const n = 4 + 2 * Math.floor(r() * 3);
      const pts: string[] = [];
      for (let i = 0; i < n * 2; i++) {
        const rad = i % 2 === 0 ? 92 : 30 + r() * 10;
        const a = (i * Math.PI) / n - Math.PI / 2;
        pts.push(`${f(128 + rad * Math.cos(a))},${f(128 + rad * Math.sin(a))}`);
      }
      return `<polygon points="${pts.join(" ")}" fill="${ink}"/><circle cx="128" cy="128" r="14" fill="${acc}"/>`;
    }
    case "knot": {
      const d = 26 + r() * 10;
      return `<circle cx="${f(128 - d)}" cy="128" r="54" fill="none" stroke="${ink}" stroke-width="18"/>
<circle cx="${f(128 + d)}" cy="128" r="54" fill="none" stroke="${acc}" stroke-width="18" opacity=".9"/>`;
    }
    case "shield": {
      const notch = r() > 0.5;
      return `<path d="M128 38 L204 66 L204 128 C204 176 170 206 128 222 C86 206 52 176 52 128 L52 66 Z" fill="${ink}"/>
${notch ? `<path d="M128 38 L128 222 C86 206 52 176 52 128 L52 66 Z" fill="${acc}" opacity=".3"/>` : `<circle cx="128" cy="124" r="30" fill="${b.to}"/>`}
<path d="M108 128 L124 144 L152 110" fill="none" stroke="${notch ? b.to : ink}" stroke-width="12" stroke-linecap="round" stroke-linejoin="round"/>`;
    }
  }
}

/** A square logo, 256 x 256: the mark on the project's gradient. */
export function logoSvg(slug: string, name: string, chain?: string): string {
  const b = brandOf(slug, chain);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256" role="img" aria-label="${escapeXml(name)}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${b.from}"/><stop offset="1" stop-color="${b.to}"/></linearGradient>
<radialGradient id="gl" cx=".25" cy=".15" r=".9"><stop offset="0" stop-color="#fff" stop-opacity=".22"/><stop offset=".6" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
<rect width="256" height="256" rx="60" fill="url(#bg)"/>
<rect width="256" height="256" rx="60" fill="url(#gl)"/>
${markSvg(b, slug)}
</svg>`;
}

/** A wide cover, 1600 x 900 (drawn at 800 x 450): the mark large, name, ticker and chain. */
export function coverSvg(slug: string, name: string, ticker: string, chain: string): string {
  const b = brandOf(slug, chain);
  const r = rng(`${slug}:cover`);
  const specks = Array.from(
    { length: 18 },
    () =>
      `<circle cx="${f(r() * 800)}" cy="${f(r() * 450)}" r="${f(2 + r() * 5)}" fill="${b.ink}" opacity="${f(0.08 + r() * 0.18)}"/>`,
  ).join("");
  const fontSize = name.length > 16 ? 44 : 56;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 800 450" role="img" aria-label="${escapeXml(name)}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${b.from}"/><stop offset="1" stop-color="${b.to}"/></linearGradient>
<radialGradient id="gl" cx=".8" cy=".3" r=".7"><stop offset="0" stop-color="${b.accent}" stop-opacity=".35"/><stop offset="1" stop-color="${b.accent}" stop-opacity="0"/></radialGradient></defs>
<rect width="800" height="450" fill="url(#bg)"/>
<rect width="800" height="450" fill="url(#gl)"/>
${specks}
<g transform="translate(470 40) scale(1.45)" opacity=".95">${markSvg(b, slug)}</g>
<g transform="translate(420 -60) scale(2.4)" opacity=".07">${markSvg(b, `${slug}:echo`)}</g>
<text x="56" y="200" font-family="Noto Sans, DejaVu Sans, Arial, sans-serif" font-size="${fontSize}" font-weight="700" fill="${b.ink}">${escapeXml(name)}</text>
<text x="58" y="248" font-family="Noto Sans, DejaVu Sans, Arial, sans-serif" font-size="26" fill="${b.ink}" opacity=".8">$${escapeXml(ticker)}</text>
<rect x="56" y="282" width="${f(36 + chain.length * 13)}" height="40" rx="20" fill="${b.ink}" opacity=".16"/>
<text x="${f(74)}" y="309" font-family="Noto Sans, DejaVu Sans, Arial, sans-serif" font-size="20" font-weight="600" fill="${b.ink}">${escapeXml(chain)}</text>
</svg>`;
}
