import type { FileFacts } from '../facts/types.js';
import { isScriptFile } from '../util/file-kinds.js';
import type { RepoModel } from '../model/model.js';
import { SymbolGraph, type NodeId } from './symbols.js';

/**
 * The dependency closure of a test at symbol level: the local files whose
 * change can change what the test runs. A file is in it when code the test
 * reaches lives there (a declaration it calls or reads, an export it resolves
 * through), or when it is loaded and its top level does something on load.
 * A module imported for a binding the test never uses, or required inside a
 * function the test never calls, is not: editing it cannot change the test.
 * It walks the same graph as the free-test check, so both agree on what "reaches" means.
 */
export class TestClosure {
  // Only reachability matters here, not what a call does: no site or package is a sink.
  private readonly graph: SymbolGraph;
  private readonly memo = new Map<string, { closure: Map<string, string[]>; files: Set<string> }>();

  constructor(private readonly model: RepoModel) {
    this.graph = new SymbolGraph(model, { site: () => null, package: () => null });
  }

  /**
   * Every other local file in the closure of `file`, each with a chain of
   * files that reaches it, shortest first. The graph is shared between the
   * tests asked about: each ask is charged with the files of every node it
   * reached, whoever built them.
   */
  of(file: string): Map<string, string[]> {
    // The closure follows imports through nodes other asks may have built: it depends on resolution either way.
    this.model.noteResolution();
    const memo = this.memo.get(file);
    if (memo) {
      for (const reached of memo.files) this.model.facts(reached);
      return memo.closure;
    }
    const parents = this.reach(file);
    const files = new Set<string>();
    for (const id of parents.keys()) {
      const reached = this.graph.describe(id)?.file;
      if (reached !== undefined) files.add(reached);
    }
    // Every file reached has its initialiser reached too (an export's and a unit's way in), and liveInits
    // reads the facts of each: this ask is charged with them there. A memo hit skips it, so it charges above.
    const live = this.liveInits(parents.keys());
    const closure = new Map<string, string[]>();
    for (const id of parents.keys()) {
      const node = this.graph.describe(id);
      if (!node?.file || node.file === file || closure.has(node.file)) continue;
      if (node.kind === 'sink' || (node.kind === 'init' && !live.has(id))) continue;
      closure.set(node.file, this.chain(id, parents));
    }
    this.memo.set(file, { closure, files });
    return closure;
  }

  /** Breadth-first from everything the test file runs: each reached node with the node it was reached from. */
  private reach(file: string): Map<NodeId, NodeId | null> {
    const parents = new Map<NodeId, NodeId | null>();
    const queue = this.graph.moduleNodes(file);
    for (const id of queue) parents.set(id, null);
    for (let i = 0; i < queue.length; i++) {
      const current = queue[i] ?? '';
      for (const next of this.graph.successors(current)) {
        if (parents.has(next)) continue;
        parents.set(next, current);
        queue.push(next);
      }
    }
    return parents;
  }

  /**
   * The reached initialisers that do something on load: a statement of their
   * own, or an import of a module that does. A module that only declares
   * things does nothing until one of them is used, and a use is its own edge.
   */
  private liveInits(reached: Iterable<NodeId>): Set<NodeId> {
    const importers = new Map<NodeId, NodeId[]>();
    const live: NodeId[] = [];
    for (const id of reached) {
      const node = this.graph.describe(id);
      if (node?.kind !== 'init' || node.file === null) continue;
      let acts = runsOnLoad(node.file, this.model.facts(node.file));
      for (const next of this.graph.successors(id)) {
        if (this.graph.describe(next)?.kind !== 'init') acts = true;
        else {
          const list = importers.get(next);
          if (list) list.push(id);
          else importers.set(next, [id]);
        }
      }
      if (acts) live.push(id);
    }
    const seen = new Set(live);
    for (let i = 0; i < live.length; i++) {
      for (const importer of importers.get(live[i] ?? '') ?? []) {
        if (seen.has(importer)) continue;
        seen.add(importer);
        live.push(importer);
      }
    }
    return seen;
  }

  private chain(id: NodeId, parents: ReadonlyMap<NodeId, NodeId | null>): string[] {
    const files: string[] = [];
    for (let at: NodeId | null = id; at !== null; at = parents.get(at) ?? null) {
      const file = this.graph.describe(at)?.file;
      if (file && files.at(-1) !== file) files.push(file);
    }
    return files.reverse();
  }
}

/** Whether a module's top level runs code of its own when loaded; a script we have no facts for is assumed to, data never does. */
function runsOnLoad(file: string, facts: FileFacts | null): boolean {
  if (facts === null) return isScriptFile(file);
  return (
    facts.units.some((unit) => unit.names.includes('<init>') || unit.sites.some((site) => site.eager)) ||
    facts.imports.some((fact) => !fact.typeOnly && fact.eager === true && (fact.kind === 'dynamic' || fact.kind === 'require'))
  );
}
