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
  private readonly missing = new Map<NodeId, Unresolved>();
  /** starProvides' answers, by file, specifier and name. */
  private readonly provides = new Map<string, boolean>();
  private next: Map<NodeId, NodeId> | null = null;
  private solvedSize = -1;
  /** mayChainThrough's answers: per `via` predicate, the nodes that can reach a node it accepts that reaches a sink. */
  private readonly through = new WeakMap<(file: string) => boolean, { size: number; reach: Set<NodeId> }>();

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
      return label === null ? null : this.sinkNode(`P|${target.name}`, { label, file: fromFile });
    }
    if (target.kind === 'missing') return this.missingNode(fromFile, specifier);
    if (imported === '<init>') return this.initNode(target.path);
    return this.exportNode(target.path, imported);
  }

  /** Shortest chain from a node to a sink, or null when it reaches none. */
  chain(start: NodeId): ChainStep[] | null {
    const next = this.solved();
    if (!this.nodes.get(start)?.sink && !next.has(start)) return null;
    const steps: ChainStep[] = [];
    let current: NodeId | undefined = start;
    const seen = new Set<NodeId>();
    while (current !== undefined && !seen.has(current)) {
      seen.add(current);
      const node = this.nodes.get(current);
      if (node?.step) pushStep(steps, node.step);
      if (node?.sink) break;
      current = next.get(current);
    }
    return steps;
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
    const next = this.solved();
    const parent = new Map<NodeId, NodeId | null>([[start, null]]);
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const id = queue[i] ?? '';
      const node = this.nodes.get(id);
      if (node && via(node.file) && (node.sink || next.has(id))) {
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
    if (!memo || memo.size !== this.nodes.size) {
      memo = { size: this.nodes.size, reach: this.reachingThrough(via) };
      this.through.set(via, memo);
    }
    return memo.reach.has(start);
  }

  private reachingThrough(via: (file: string) => boolean): Set<NodeId> {
    const next = this.solved();
    const reverse = new Map<NodeId, NodeId[]>();
    for (const [id, node] of this.nodes) {
      for (const to of node.edges) {
        const from = reverse.get(to);
        if (from) from.push(id);
        else reverse.set(to, [id]);
      }
    }
    const reach = new Set<NodeId>();
    const queue: NodeId[] = [];
    for (const [id, node] of this.nodes) {
      if (via(node.file) && (node.sink || next.has(id))) {
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
    return reach;
  }

  private solved(): Map<NodeId, NodeId> {
    if (this.next === null || this.solvedSize !== this.nodes.size) {
      this.next = this.solve();
      this.solvedSize = this.nodes.size;
    }
    return this.next;
  }

  /** The imports that could not be followed on the way from these nodes, each once. */
  unresolved(starts: readonly NodeId[]): Unresolved[] {
    const seen = new Set<NodeId>(starts);
    const queue = [...starts];
    const found: Unresolved[] = [];
    for (let i = 0; i < queue.length; i++) {
      const id = queue[i] ?? '';
      const missing = this.missing.get(id);
      if (missing) found.push(missing);
      for (const to of this.nodes.get(id)?.edges ?? []) {
        if (seen.has(to)) continue;
        seen.add(to);
        queue.push(to);
      }
    }
    return found;
  }

  private isMocked(target: Resolution, specifier: string): boolean {
    return this.mocked.has(target.kind === 'file' ? `file:${target.path}` : `package:${specifier}`);
  }

  // ---- nodes

  /** Not a sink: an import that cannot be followed is no evidence of a paid call. */
  private missingNode(file: string, specifier: string): NodeId {
    const id = `M|${file}|${specifier}`;
    if (!this.nodes.has(id)) {
      this.nodes.set(id, { kind: 'missing', step: null, file, sink: false, edges: [] });
      this.missing.set(id, { file, specifier });
    }
    return id;
  }

  private sinkNode(id: NodeId, step: ChainStep): NodeId {
    if (!this.nodes.has(id)) this.nodes.set(id, { kind: 'sink', step, file: step.file, sink: true, edges: [] });
    return id;
  }

  private initNode(file: string): NodeId {
    const id = `I|${file}`;
    if (this.nodes.has(id)) return id;
    const node: GraphNode = { kind: 'init', file, step: { label: `${file} (on import)`, file }, sink: false, edges: [] };
    this.nodes.set(id, node);
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
    this.nodes.set(id, node);
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
    this.nodes.set(id, node);
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

  /** Reverse breadth-first search from every sink: next hop towards the nearest sink. */
  private solve(): Map<NodeId, NodeId> {
    const reverse = new Map<NodeId, NodeId[]>();
    const queue: NodeId[] = [];
    for (const [id, node] of this.nodes) {
      if (node.sink) queue.push(id);
      for (const to of node.edges) {
        const list = reverse.get(to);
        if (list) list.push(id);
        else reverse.set(to, [id]);
      }
    }
    const next = new Map<NodeId, NodeId>();
    const reached = new Set(queue);
    for (let i = 0; i < queue.length; i++) {
      const current = queue[i] ?? '';
      for (const from of reverse.get(current) ?? []) {
        if (reached.has(from)) continue;
        reached.add(from);
        next.set(from, current);
        queue.push(from);
      }
    }
    return next;
  }
}

/** Consecutive steps in one unit read as one. */
function pushStep(steps: ChainStep[], step: ChainStep): void {
  if (steps.at(-1)?.label !== step.label) steps.push(step);
}
