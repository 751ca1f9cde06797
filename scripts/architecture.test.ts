/**
 * docs/architecture.md's server diagram is the module graph: every server module appears
 * in one of its nodes, and its arrows are exactly the imports between modules (one module
 * importing another's index.ts), no arrow missing and none left over. Change the imports
 * and the diagram together.
 */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { moduleSources, modulesDir, serverModules } from "./lib/server-modules.ts";
import { BELOW_FEATURES, SHARED_FEATURE_LAYERS, WEB_ENTRIES } from "./lib/web-layers.ts";
import { repoRoot } from "./web-build.ts";

const modules = serverModules;

/** `a -> b` for each module a whose code imports module b (through b's index.ts). */
function importedEdges(): Set<string> {
  const edges = new Set<string>();
  for (const from of modules) {
    for (const file of moduleSources(path.join(modulesDir, from))) {
      for (const match of readFileSync(file, "utf8").matchAll(
        /from\s+"((?:\.\.\/)+)([a-z-]+)\/index\.ts"/g,
      )) {
        const target = path.resolve(path.dirname(file), `${match[1]}${match[2]}`);
        const to = path.relative(modulesDir, target);
        if (modules.includes(to) && to !== from) edges.add(`${from} -> ${to}`);
      }
    }
  }
  return edges;
}

/** The server diagram: node id -> the modules its label names, and its arrows. */
function diagram(): { members: Map<string, string[]>; edges: Set<string> } {
  const doc = readFileSync(path.join(repoRoot, "docs/architecture.md"), "utf8");
  const start = doc.indexOf("## The server");
  const block = /```mermaid\n([\s\S]*?)```/.exec(doc.slice(start))?.[1] ?? "";
  const members = new Map<string, string[]>();
  for (const match of block.matchAll(/^\s*([a-zA-Z][\w-]*)\["([^"]*)"\]/gm)) {
    const names = (match[2] ?? "").split("<br/>")[0] ?? "";
    members.set(
      match[1] ?? "",
      names
        .split(",")
        .map((n) => n.trim())
        .filter((n) => modules.includes(n)),
    );
  }
  const edges = new Set<string>();
  for (const match of block.matchAll(/^\s*([\w-]+)\s*(?:--\s*"[^"]*"\s*)?-->\s*([\w-]+)\s*$/gm)) {
    edges.add(`${match[1]} -> ${match[2]}`);
  }
  return { members, edges };
}

describe("docs/architecture.md's server diagram", () => {
  const { members, edges } = diagram();
  const nodeOf = new Map<string, string>();
  for (const [node, names] of members) for (const name of names) nodeOf.set(name, node);

  test("names every server module in one node", () => {
    expect(modules.filter((m) => !nodeOf.has(m))).toEqual([]);
  });

  test("draws exactly the imports between modules", () => {
    const drawn = new Set<string>();
    for (const edge of importedEdges()) {
      const [from, to] = edge.split(" -> ");
      const a = nodeOf.get(from ?? "");
      const b = nodeOf.get(to ?? "");
      if (a !== undefined && b !== undefined && a !== b) drawn.add(`${a} -> ${b}`);
    }
    const moduleNodes = new Set(nodeOf.values());
    const between = [...edges].filter((e) => e.split(" -> ").every((n) => moduleNodes.has(n)));
    expect({
      missing: [...drawn].filter((e) => !edges.has(e)).sort(),
      extra: between.filter((e) => !drawn.has(e)).sort(),
    }).toEqual({
      missing: [],
      extra: [],
    });
  });
});

/** The web diagram's three rows: entries, the shared features, the layers below. */
function webDiagram(): { entries: string[]; shared: string[]; below: string[] } {
  const doc = readFileSync(path.join(repoRoot, "docs/architecture.md"), "utf8");
  const block = /```\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf("## The web app")))?.[1] ?? "";
  const names = (text: string) =>
    [...text.matchAll(/(?:features\/)?([a-z0-9-]+)\//g)]
      .map((m) => m[1] ?? "")
      .filter((n) => n !== "features");
  const [top = "", , , bottom = ""] = block.split("\n");
  const [entries = "", , shared = ""] = top.split("->");
  return { entries: names(entries), shared: names(shared), below: names(bottom) };
}

describe("docs/architecture.md's web diagram", () => {
  const drawn = webDiagram();

  test("draws the layers the boundary test enforces", () => {
    expect(drawn).toEqual({
      entries: [...WEB_ENTRIES],
      shared: [...SHARED_FEATURE_LAYERS],
      below: [...BELOW_FEATURES],
    });
  });

  test("places every folder of apps/web/app", () => {
    const folders = readdirSync(path.join(repoRoot, "apps/web/app"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const placed = new Set([...drawn.entries, "features", ...drawn.below]);
    expect(folders.filter((f) => !placed.has(f))).toEqual([]);
  });
});
