import { extractDeclarations } from '../facts/test-reads.js';
import type { DeclarationFact, PinnedTestFact } from '../facts/types.js';
import type { RepoModel } from '../model/model.js';
import { isScriptFile } from '../util/file-kinds.js';
import { compareText } from '../util/compare.js';

/** Derived-cache purpose of a helper module's declarations (bump the suffix when their extraction changes). */
const HELPER_DECLARATIONS = 'frozen-helper-declarations-1';

/**
 * What a frozen test means besides its body, as pinned hashes: every
 * top-level declaration of its file it reads, transitively (by name), and
 * every function or value it imports from a local module, by its own hash
 * (`path#name`), so that an edit elsewhere in that module does not count.
 * Imports of packages are not pinned.
 */
export function pinnedReads(model: RepoModel, file: string, test: PinnedTestFact): Record<string, string> {
  const facts = model.pinnedFacts(file);
  if (!facts || !test.reads) return {};
  const declarations = new Map((facts.declarations ?? []).map((declaration) => [declaration.name, declaration]));
  const imported = new Map<string, { specifier: string; name: string }>();
  for (const fact of facts.imports) {
    if (fact.typeOnly || fact.unit !== undefined) continue;
    for (const binding of fact.bindings) if (!binding.typeOnly && binding.imported !== '*') imported.set(binding.local, { specifier: fact.specifier, name: binding.imported });
  }
  const pins = new Map<string, string>();
  const queue = [...test.reads];
  const seen = new Set<string>();
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const declaration = declarations.get(name);
    if (declaration) {
      pins.set(name, declaration.hash);
      queue.push(...declaration.reads);
      continue;
    }
    const from = imported.get(name);
    if (!from || !from.specifier.startsWith('.')) continue;
    const target = model.resolve(file, from.specifier);
    if (target.kind !== 'file' || !isScriptFile(target.path)) continue;
    const helper = helperDeclarations(model, target.path).find((candidate) => candidate.name === from.name);
    if (helper) pins.set(`${target.path}#${from.name}`, helper.hash);
  }
  return Object.fromEntries([...pins].sort(([a], [b]) => compareText(a, b)));
}

function helperDeclarations(model: RepoModel, path: string): DeclarationFact[] {
  return model.derived(path, HELPER_DECLARATIONS, (text) => extractDeclarations(path, text)) ?? [];
}
