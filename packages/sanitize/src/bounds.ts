import { type DefaultTreeAdapterMap, defaultTreeAdapter, parse } from "parse5";

/**
 * Bumped whenever `sanitizeHtml`'s output for some input can change (allow-lists, URL
 * policy, hooks, DOMPurify upgrade). Stored HTML carries the version that cleaned it; the
 * server cleans rows of an older version again at start (see the server's stored-html.ts).
 */
export const SANITIZER_VERSION = 1;

/**
 * What stored rich text may be. Sanitising cost grows faster than the input with nesting
 * (each insertion walks its ancestors; about a second for 3,000 nested elements, a stack
 * overflow near 5,000), so nesting is bounded well below that; real article HTML nests
 * around ten deep. The element count also bounds what the parser itself builds: misnested
 * formatting tags make it clone elements, and 12 KB of them made 2.4 million.
 */
export const HTML_LIMITS = {
  /** Characters of HTML source. */
  maxLength: 65_536,
  /** Elements from the body down, as the browser's parser builds the tree. */
  maxDepth: 32,
  /** Elements in the parsed tree, clones made by the parser included. */
  maxElements: 4_096,
} as const;

export type HtmlLimits = { readonly [K in keyof typeof HTML_LIMITS]: number };

export interface HtmlBoundsIssue {
  rule: "too_long" | "too_deep" | "too_many_elements";
  message: string;
}

class TooManyElements extends Error {}

type Node = DefaultTreeAdapterMap["node"];

/**
 * Whether `html` is within `limits`, judged on the tree the HTML parser really builds
 * (parse5, the parser jsdom and DOMPurify's server side use; same rules as a browser), so
 * no markup trick (quotes holding `</div>`, raw text, misnested formatting, foreign
 * content) can pass a cheaper pre-scan and nest deeper afterwards. Linear: the parse
 * stops at the element limit, and the depth walk is iterative.
 */
export function checkHtmlBounds(html: string, limits: HtmlLimits = HTML_LIMITS): HtmlBoundsIssue | undefined {
  if (html.length > limits.maxLength) {
    return {
      rule: "too_long",
      message: `HTML is ${html.length} characters; at most ${limits.maxLength} are accepted`,
    };
  }
  let elements = 0;
  const treeAdapter = {
    ...defaultTreeAdapter,
    createElement(...args: Parameters<typeof defaultTreeAdapter.createElement>) {
      elements += 1;
      if (elements > limits.maxElements + 3) throw new TooManyElements();
      return defaultTreeAdapter.createElement(...args);
    },
  };
  let document: DefaultTreeAdapterMap["document"];
  try {
    // DOMPurify parses into a fresh document with scripting off (noscript holds markup).
    document = parse(html, { treeAdapter, scriptingEnabled: false });
  } catch (error) {
    if (!(error instanceof TooManyElements)) throw error;
    return {
      rule: "too_many_elements",
      message: `HTML makes more than ${limits.maxElements} elements`,
    };
  }
  // html, head and body are the parser's own; depth counts from the body's children.
  const depth = maxElementDepth(document) - 2;
  if (depth > limits.maxDepth) {
    return {
      rule: "too_deep",
      message: `HTML nests ${depth} elements deep; at most ${limits.maxDepth} are accepted`,
    };
  }
  return undefined;
}

function maxElementDepth(root: Node): number {
  let max = 0;
  const stack: { node: Node; depth: number }[] = [{ node: root, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, depth } = item;
    const isElement = "tagName" in node;
    const here = isElement ? depth + 1 : depth;
    if (here > max) max = here;
    const children = "childNodes" in node ? node.childNodes : [];
    for (const child of children) stack.push({ node: child, depth: here });
    // <template> keeps its children in a content fragment.
    if (isElement && "content" in node && node.content !== undefined) {
      stack.push({ node: node.content as Node, depth: here });
    }
  }
  return max;
}
