import type { AtRule, Plugin, Rule } from "postcss";

/** Class of every element the embedded shell renders into (header, footer, overlays). */
export const SHELL_ROOT_CLASS = "meridian-shell";

const ROOT = `.${SHELL_ROOT_CLASS}`;

/**
 * Page-level rules of the site stylesheet that do not belong to the shell: the embed
 * keeps the shell's own blocks and the base rules, nothing of the pages it frames.
 */
const DROPPED = /(^|[\s,>+~])\.(home-|not-found|shell-main|shell-skip-link|shell-download)/;

/**
 * One selector, moved under the shell root so the host page is never restyled:
 * `html`/`body`/`:root` (and `html.theme-black`) become the root itself, anything
 * else becomes a descendant of it. Selectors on antd's own prefixed classes stay as
 * they are: they only match antd markup, and antd portals (the legal dialog) need them.
 */
export function scopeSelector(selector: string): string {
  const s = selector.trim();
  const rootLike = /^(html|body|:root)(?=$|[.:[\s>+~])/.exec(s);
  if (rootLike) {
    const rest = s.slice(rootLike[0].length);
    // `html.theme-black .x` -> `.meridian-shell.theme-black .x`
    return `${ROOT}${rest}`;
  }
  if (/\.(ant|mer)-|\.css-var-/.test(s)) return s;
  return `${ROOT} ${s}`;
}

function insideKeyframes(rule: Rule): boolean {
  const parent = rule.parent;
  return parent?.type === "atrule" && /keyframes$/i.test((parent as AtRule).name);
}

export interface ScopeOptions {
  /** antd components (class stems such as `tag`, which also drops `.ant-tag-red`) the shell never renders. */
  dropAntd?: readonly string[];
}

/**
 * PostCSS plugin for the embed bundle's stylesheet: drops page-only rules (and the antd
 * components named in `dropAntd`) and scopes every other rule to `.meridian-shell`
 * (see {@link scopeSelector}).
 */
export function scopeToShell(options: ScopeOptions = {}): Plugin {
  const stems = options.dropAntd ?? [];
  const unusedAntd = stems.length > 0 ? new RegExp(`\\.ant-(${stems.join("|")})(?![a-z])`) : null;
  const dropped = (selector: string) => DROPPED.test(selector) || (unusedAntd?.test(selector) ?? false);
  return {
    postcssPlugin: "meridian-scope-to-shell",
    Rule(rule) {
      if (insideKeyframes(rule) || rule.selector.includes(ROOT)) return;
      const kept = rule.selectors.filter((s) => !dropped(s));
      if (kept.length === 0) {
        rule.remove();
        return;
      }
      rule.selectors = [...new Set(kept.map(scopeSelector))];
    },
  };
}
scopeToShell.postcss = true as const;
