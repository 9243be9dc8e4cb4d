import type { ImportFact, Site, Unit } from '../facts/types.js';
import type { Loc } from '../types.js';
import type { RepoModel } from '../model/model.js';
import type { Resolution } from '../model/resolve.js';

/**
 * What counts as a sink is the caller's: the symbol graph only knows how
 * code reaches code. A sink callback returns a label (`spawns claude`) or null;
 * `file` is where the site or the import is.
 */
export interface Sinks {
  site(site: Site, file: string): string | null;
  package(name: string, file: string, specifier: string): string | null;
}

/** An import the graph could not follow: what lies behind it was not checked. */
export interface Unresolved {
  file: string;
  specifier: string;
}

/** Code under an entry-point guard: it never runs when the module is imported. */
const ENTRY_UNIT = '<main>';

export interface ChainStep {
  label: string;
  file: string;
  loc?: Loc;
}

export type NodeId = string;

/** A module initialiser, an export, a unit (top-level declaration), a sink (a call, a package), or an import that does not resolve. */
export type NodeKind = 'init' | 'export' | 'unit' | 'sink' | 'missing';

interface GraphNode {
  kind: NodeKind;
  /** Shown in a chain; null for bookkeeping nodes (exports). */
  step: ChainStep | null;
  /** The file the node belongs to (for a sink: the file of the site or the import). */
  file: string;
  sink: boolean;
  edges: NodeId[];
}

/**
 * A symbol-level reachability graph over the per-file facts: units (top-level
 * declarations), module initialisers and exports are nodes; a reference, an
 * import or a re-export is an edge. It is built lazily from the nodes a caller
 * starts from, then walked backwards from the sinks once, so every start node
 * learns its shortest chain in linear time, cycles included.
 */
export class SymbolGraph {
  private readonly nodes = new Map<NodeId, GraphNode>();
  /** The nodes in the order they were made: a node's edges are final once the call that made it returns, and never point to a node made after that call. */
  private readonly order: NodeId[] = [];
  private readonly missing = new Map<NodeId, Unresolved>();
  /** starProvides' answers, by file, specifier and name. */
  private readonly provides = new Map<string, boolean>();
  /** Distance to the nearest sink of every solved node that reaches one. */
  private readonly dist = new Map<NodeId, number>();
  /** How many nodes of `order` are solved. */
  private solvedCount = 0;
  /** mayChainThrough's answers: per `via` predicate, of the first `count` nodes, those that can reach a node it accepts that reaches a sink. */
  private readonly through = new WeakMap<(file: string) => boolean, { count: number; reach: Set<NodeId> }>();

  /**
   * @param mocked modules replaced for the whole module graph of the run
   * (`file:<path>`, `package:<specifier>`): the graph does not enter them.
   */
  constructor(
    private readonly model: RepoModel,
    private readonly sinks: Sinks,
    private readonly mocked: ReadonlySet<string> = new Set(),
  ) {}

  /** Node for using `imported` (`*` for everything, `<init>` for a side-effect import) of what `specifier` resolves to from `fromFile`. */
  importTarget(fromFile: string, specifier: string, imported: string): NodeId | null {
    const target = this.model.resolve(fromFile, specifier);
    if (this.isMocked(target, specifier)) return null;
    if (target.kind === 'package') {
      const label = this.sinks.package(target.name, fromFile, specifier);
      // One sink per importing file: the chain names the file that imports the SDK.
      return label === null ? null : this.sinkNode(`P|${fromFile}|${target.name}`, { label, file: fromFile });
    }
    if (target.kind === 'missing') return this.missingNode(fromFile, specifier);
    if (imported === '<init>') return this.initNode(target.path);
    return this.exportNode(target.path, imported);
  }

  /**
   * Shortest chain from a node to a sink, or null when it reaches none. Of
   * several shortest chains, each step takes the first edge (in the order of
   * the facts) that stays on one: the answer depends only on what the start
   * reaches, never on what else the graph was asked before.
   */
  chain(start: NodeId): ChainStep[] | null {
    this.solve();
    if (!this.dist.has(start)) return null;
    const steps: ChainStep[] = [];
    let current: NodeId | undefined = start;
    while (current !== undefined) {
      const node = this.nodes.get(current);
      if (node?.step) pushStep(steps, node.step);
      if (node === undefined || node.sink) break;
      current = this.nextHop(node, this.dist.get(current) ?? 0);
    }
    return steps;
  }

  /** The first edge of a node at `distance` from a sink that leads to one a step nearer. */
  private nextHop(node: GraphNode, distance: number): NodeId | undefined {
    return node.edges.find((to) => this.dist.get(to) === distance - 1);
  }

  /** What a test file runs of itself: its initialiser and every unit (the runner calls the test bodies). */
  moduleNodes(file: string): NodeId[] {
    return [this.initNode(file), ...(this.model.facts(file)?.units ?? []).map((unit) => this.unitNode(file, unit))];
  }

  successors(id: NodeId): readonly NodeId[] {
    return this.nodes.get(id)?.edges ?? [];
  }

  describe(id: NodeId): { kind: NodeKind; file: string } | null {
    const node = this.nodes.get(id);
    return node ? { kind: node.kind, file: node.file } : null;
  }

  /** Shortest chain from a node to a sink that passes through a node of a file `via` accepts, or null. */
  chainThrough(start: NodeId, via: (file: string) => boolean): ChainStep[] | null {
    this.solve();
    const parent = new Map<NodeId, NodeId | null>([[start, null]]);
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const id = queue[i] ?? '';
      const node = this.nodes.get(id);
      if (node && via(node.file) && this.dist.has(id)) {
        const path: ChainStep[] = [];
        for (let at = parent.get(id); at != null; at = parent.get(at)) {
          const step = this.nodes.get(at)?.step;
          if (step) path.unshift(step);
        }
        const steps: ChainStep[] = [];
        for (const step of [...path, ...(this.chain(id) ?? [])]) pushStep(steps, step);
        return steps;
      }
      for (const to of node?.edges ?? []) {
        if (parent.has(to)) continue;
        parent.set(to, id);
        queue.push(to);
      }
    }
    return null;
  }

  /**
   * Whether chainThrough(start, v) can find a chain for some `v` that accepts
   * no file `via` rejects: false means it finds none. One backward walk per
   * predicate (the same function object) answers every start, where each
   * chainThrough walks forward from its own.
   */
  mayChainThrough(start: NodeId, via: (file: string) => boolean): boolean {
    let memo = this.through.get(via);
    if (!memo) this.through.set(via, (memo = { count: 0, reach: new Set() }));
    if (memo.count < this.order.length) {
      this.solve();
      // A node made later is never reached from one made before it: only the new nodes can join.
      const fresh = this.order.slice(memo.count);
      const reach = memo.reach;
      const reverse = reverseEdges(this.nodes, fresh);
      const queue: NodeId[] = [];
      for (const id of fresh) {
        const node = this.nodes.get(id);
        if (!node) continue;
        if ((via(node.file) && this.dist.has(id)) || node.edges.some((to) => reach.has(to))) {
          reach.add(id);
          queue.push(id);
        }
      }
      for (let i = 0; i < queue.length; i++) {
        for (const from of reverse.get(queue[i] ?? '') ?? []) {
          if (reach.has(from)) continue;
          reach.add(from);
          queue.push(from);
        }
      }
      memo.count = this.order.length;
    }
    return memo.reach.has(start);
  }

  /** What these nodes reach: the files of the nodes on the way, and the imports that could not be followed (each once). */
  reach(starts: readonly NodeId[]): { files: Set<string>; unresolved: Unresolved[] } {
    const seen = new Set<NodeId>(starts);
    const queue = [...seen];
    const files = new Set<string>();
    const unresolved: Unresolved[] = [];
    for (let i = 0; i < queue.length; i++) {
      const id = queue[i] ?? '';
      const missing = this.missing.get(id);
      if (missing) unresolved.push(missing);
      const node = this.nodes.get(id);
      if (!node) continue;
      files.add(node.file);
      for (const to of node.edges) {
        if (seen.has(to)) continue;
        seen.add(to);
        queue.push(to);
      }
    }
    return { files, unresolved };
  }

  private isMocked(target: Resolution, specifier: string): boolean {
    return this.mocked.has(target.kind === 'file' ? `file:${target.path}` : `package:${specifier}`);
  }

  // ---- nodes

  private add(id: NodeId, node: GraphNode): void {
    this.nodes.set(id, node);
    this.order.push(id);
  }

  /** Not a sink: an import that cannot be followed is no evidence of a paid call. */
  private missingNode(file: string, specifier: string): NodeId {
    const id = `M|${file}|${specifier}`;
    if (!this.nodes.has(id)) {
      this.add(id, { kind: 'missing', step: null, file, sink: false, edges: [] });
      this.missing.set(id, { file, specifier });
    }
    return id;
  }

  private sinkNode(id: NodeId, step: ChainStep): NodeId {
    if (!this.nodes.has(id)) this.add(id, { kind: 'sink', step, file: step.file, sink: true, edges: [] });
    return id;
  }

  private initNode(file: string): NodeId {
    const id = `I|${file}`;
    if (this.nodes.has(id)) return id;
    const node: GraphNode = { kind: 'init', file, step: { label: `${file} (on import)`, file }, sink: false, edges: [] };
    this.add(id, node);
    const facts = this.model.facts(file);
    if (!facts) return id;
    for (const unit of facts.units) {
      for (const [index, site] of unit.sites.entries()) {
        if (site.eager) this.addSite(node, file, unit, index, site);
      }
      for (const ref of unit.refs) {
        if (ref.eagerCall) this.addRef(node, file, ref.name, ref.member);
      }
    }
    for (const fact of facts.imports) {
      if (fact.typeOnly) continue;
      if (fact.kind === 'static' || fact.kind === 'side-effect' || fact.kind === 'reexport') {
        const target = this.model.resolve(file, fact.specifier);
        if (this.isMocked(target, fact.specifier)) continue;
        if (target.kind === 'file') node.edges.push(this.initNode(target.path));
        else if (fact.kind === 'side-effect' || target.kind === 'missing') this.pushTarget(node, file, fact.specifier, '<init>');
      } else if (fact.eager) {
        this.addImportUse(node, file, fact);
      }
    }
    return id;
  }

  private exportNode(file: string, name: string): NodeId {
    const id = `E|${file}|${name}`;
    if (this.nodes.has(id)) return id;
    const node: GraphNode = { kind: 'export', file, step: null, sink: false, edges: [] };
    this.add(id, node);
    node.edges.push(this.initNode(file));
    const facts = this.model.facts(file);
    if (!facts) return id;
    const units = facts.units.filter((unit) => unit.names[0] !== ENTRY_UNIT);
    if (name === '*' || facts.exports.some((e) => e.kind === 'commonjs')) {
      for (const unit of units) node.edges.push(this.unitNode(file, unit));
      for (const fact of facts.exports) {
        if (fact.kind === 'reexport' || fact.kind === 'star') this.pushTarget(node, file, fact.specifier, fact.kind === 'star' ? '*' : fact.imported);
      }
      return id;
    }
    let found = false;
    for (const fact of facts.exports) {
      if (fact.kind === 'local' && fact.name === name) {
        found = true;
        this.addRef(node, file, fact.local, undefined);
      } else if (fact.kind === 'reexport' && fact.name === name) {
        found = true;
        this.pushTarget(node, file, fact.specifier, fact.imported);
      } else if (fact.kind === 'type' && fact.name === name) {
        // A type: nothing runs, and the name is known.
        found = true;
      }
    }
    if (!found) {
      const stars = facts.exports.filter((e) => e.kind === 'star');
      // `export *` passes on only the names its target exports: follow the branches that provide this one.
      const providing = stars.filter((star) => this.starProvides(file, star.specifier, name));
      for (const star of providing) this.pushTarget(node, file, star.specifier, name);
      if (providing.length === 0) {
        // A name the file does not export, through no branch either: assume the worst, every unit and every module it re-exports whole.
        for (const star of stars) this.pushTarget(node, file, star.specifier, '*');
        for (const unit of units) node.edges.push(this.unitNode(file, unit));
      }
    }
    return id;
  }

  /**
   * Whether `export * from specifier` (in `fromFile`) may pass on `name`: its
   * target exports it, or passes it on from a module of its own. A package, a
   * module that does not resolve or cannot be read, and a CommonJS module may
   * export anything: yes.
   */
  private starProvides(fromFile: string, specifier: string, name: string, seen?: Set<string>): boolean {
    // Only a search from the top is complete: inside a cycle, a module already on the path says no for now.
    const top = seen === undefined;
    const key = `${fromFile}\0${specifier}\0${name}`;
    const known = top ? this.provides.get(key) : undefined;
    if (known !== undefined) return known;
    const path = seen ?? new Set<string>([fromFile]);
    const target = this.model.resolve(fromFile, specifier);
    let answer: boolean;
    if (target.kind !== 'file') answer = true;
    else if (path.has(target.path)) answer = false;
    else {
      path.add(target.path);
      const facts = this.model.facts(target.path);
      answer =
        !facts ||
        facts.exports.some((e) => e.kind === 'commonjs' || ((e.kind === 'local' || e.kind === 'reexport' || e.kind === 'type') && e.name === name)) ||
        facts.exports.some((e) => e.kind === 'star' && this.starProvides(target.path, e.specifier, name, path));
    }
    if (top) this.provides.set(key, answer);
    return answer;
  }

  private unitNode(file: string, unit: Unit): NodeId {
    const id = `U|${file}|${unit.loc.line}:${unit.loc.column}`;
    if (this.nodes.has(id)) return id;
    const node: GraphNode = { kind: 'unit', file, step: { label: `${unit.names.join(', ')} (${file})`, file, loc: unit.loc }, sink: false, edges: [] };
    this.add(id, node);
    for (const [index, site] of unit.sites.entries()) this.addSite(node, file, unit, index, site);
    for (const ref of unit.refs) this.addRef(node, file, ref.name, ref.member);
    const facts = this.model.facts(file);
    for (const fact of facts?.imports ?? []) {
      if ((fact.kind === 'dynamic' || fact.kind === 'require') && fact.unit === unit.names[0] && !fact.typeOnly) this.addImportUse(node, file, fact);
    }
    return id;
  }

  // ---- edges

  private addSite(node: GraphNode, file: string, unit: Unit, index: number, site: Site): void {
    const label = this.sinks.site(site, file);
    if (label === null) return;
    node.edges.push(this.sinkNode(`S|${file}|${unit.loc.line}:${unit.loc.column}|${index}|${site.eager}`, { label, file, loc: site.loc }));
  }

  /** A reference to a top-level name of `file`: a local declaration or an import binding. */
  private addRef(node: GraphNode, file: string, name: string, member: string | undefined): void {
    const facts = this.model.facts(file);
    if (!facts) return;
    for (const unit of facts.units) {
      if (unit.names.includes(name)) node.edges.push(this.unitNode(file, unit));
    }
    for (const fact of facts.imports) {
      if (fact.typeOnly || fact.kind === 'reexport') continue;
      for (const binding of fact.bindings) {
        if (binding.local !== name || binding.typeOnly) continue;
        const imported = binding.imported === '*' && member !== undefined ? member : binding.imported;
        this.pushTarget(node, file, fact.specifier, imported);
      }
    }
  }

  private addImportUse(node: GraphNode, file: string, fact: ImportFact): void {
    for (const binding of fact.bindings) this.pushTarget(node, file, fact.specifier, binding.imported);
    if (fact.bindings.length === 0) this.pushTarget(node, file, fact.specifier, '*');
  }

  private pushTarget(node: GraphNode, file: string, specifier: string, imported: string): void {
    const target = this.importTarget(file, specifier, imported);
    if (target !== null) node.edges.push(target);
  }

  /**
   * Distance to the nearest sink for the nodes made since the last solve.
   * Those made before keep theirs: their edges never point to a newer node.
   * A new node starts at 0 (a sink) or one more than its nearest solved
   * successor, and distances spread backwards through the new nodes in
   * increasing order.
   */
  private solve(): void {
    if (this.solvedCount === this.order.length) return;
    const fresh = this.order.slice(this.solvedCount);
    this.solvedCount = this.order.length;
    const reverse = reverseEdges(this.nodes, fresh);
    const tentative = new Map<NodeId, number>();
    const buckets: NodeId[][] = [];
    const offer = (id: NodeId, distance: number): void => {
      if (this.dist.has(id) || (tentative.get(id) ?? Infinity) <= distance) return;
      tentative.set(id, distance);
      (buckets[distance] ??= []).push(id);
    };
    for (const id of fresh) {
      const node = this.nodes.get(id);
      if (!node) continue;
      if (node.sink) offer(id, 0);
      for (const to of node.edges) {
        const known = reverse.has(to) ? undefined : this.dist.get(to);
        if (known !== undefined) offer(id, known + 1);
      }
    }
    for (let distance = 0; distance < buckets.length; distance++) {
      for (const id of buckets[distance] ?? []) {
        if (this.dist.has(id) || tentative.get(id) !== distance) continue;
        this.dist.set(id, distance);
        for (const from of reverse.get(id) ?? []) offer(from, distance + 1);
      }
    }
  }
}

/** For the nodes `among`, the edges between them reversed: each node of `among` maps to its predecessors in `among` (possibly none). */
function reverseEdges(nodes: ReadonlyMap<NodeId, GraphNode>, among: readonly NodeId[]): Map<NodeId, NodeId[]> {
  const reverse = new Map<NodeId, NodeId[]>(among.map((id) => [id, []]));
  for (const id of among) {
    for (const to of nodes.get(id)?.edges ?? []) reverse.get(to)?.push(id);
  }
  return reverse;
}

/** Consecutive steps in one unit read as one. */
function pushStep(steps: ChainStep[], step: ChainStep): void {
  if (steps.at(-1)?.label !== step.label) steps.push(step);
}
