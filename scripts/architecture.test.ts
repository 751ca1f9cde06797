/**
 * docs/architecture.md's server diagram is the module graph: every server module appears
 * in one of its nodes, and its arrows are exactly the imports between modules (one module
 * importing another's index.ts), no arrow missing and none left over. Change the imports
 * and the diagram together.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { moduleSources, modulesDir, serverModules } from "./lib/server-modules.ts";
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
