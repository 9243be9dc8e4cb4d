import type * as TS from 'typescript';
import type { TypeScript } from '../parse/typescript.js';

/** Node kinds, as a table indexed by `SyntaxKind` (kindTable). */
export type KindTable = Uint8Array;

/**
 * The table of `kinds`. Build it once per process (the compiler is loaded
 * lazily, so not at module load): a lookup in it is what the walk pays per
 * node and visitor instead of the visitor's own chain of `ts.isX` tests.
 */
export function kindTable(ts: TypeScript, kinds: readonly TS.SyntaxKind[]): KindTable {
  const table = new Uint8Array(ts.SyntaxKind.Count);
  for (const kind of kinds) table[kind] = 1;
  return table;
}

/** A visitor that looks at every node of some kinds the same way, wherever it is. */
export interface Visitor {
  /** The kinds `enter` acts on: the walk hands it those nodes and no others. */
  readonly kinds: KindTable;
  enter(node: TS.Node): void;
}

/**
 * A visitor that needs to know where a node is: the walker carries its scope
 * down the tree. `enter` sees a node of its `kinds` in the scope its parent
 * gave it and returns the scope inside the node (any other node has its
 * parent's); `scopeOf` narrows that scope for each child of a node of its
 * `scopes` (a function's body, a call's third argument), and a child of any
 * other node is in its parent's inner scope.
 */
export interface ScopedVisitor<S> {
  readonly kinds: KindTable;
  readonly scopes: KindTable;
  enter(node: TS.Node, scope: S): S;
  scopeOf(parent: TS.Node, child: TS.Node, inner: S): S;
}

/**
 * The one traversal of a script's tree (DESIGN.md "Architecture": one parse,
 * one walk): every node is entered once, parents before children, children in
 * the compiler's order, and handed to each visitor that acts on its kind. What
 * a visitor can only decide once it has seen the whole file (a `const`
 * declared further down), it records here and settles after the walk.
 *
 * The tree comes from the parser without parent pointers (`parseScript(…, { parents: false })`):
 * the walk sets each node's `parent` before any visitor sees the node, which
 * saves the parser its own pass over the tree. A visitor may read the parents
 * of the node it enters and, after the walk, of any node (JSDoc nodes aside,
 * which the walk does not enter).
 */
export function walkScript<U, T>(ts: TypeScript, sourceFile: TS.SourceFile, visitors: readonly Visitor[], units: ScopedVisitor<U>, unitRoot: U, tests: ScopedVisitor<T>, testRoot: T): void {
  // The node whose children are being visited and the scopes inside it: one
  // callback for every node instead of a closure per node (the walk is hot).
  let parent: TS.Node = sourceFile;
  let unitInner = unitRoot;
  let testInner = testRoot;
  let unitScopes = units.scopes[sourceFile.kind] === 1;
  let testScopes = tests.scopes[sourceFile.kind] === 1;
  const visitChild = (child: TS.Node): void => {
    (child as { parent: TS.Node }).parent = parent;
    visit(child, unitScopes ? units.scopeOf(parent, child, unitInner) : unitInner, testScopes ? tests.scopeOf(parent, child, testInner) : testInner);
  };
  const visit = (node: TS.Node, unitScope: U, testScope: T): void => {
    const kind = node.kind;
    for (const visitor of visitors) if (visitor.kinds[kind] === 1) visitor.enter(node);
    const outer = parent;
    const unitOuter = unitInner;
    const testOuter = testInner;
    const unitScopesOuter = unitScopes;
    const testScopesOuter = testScopes;
    parent = node;
    unitInner = units.kinds[kind] === 1 ? units.enter(node, unitScope) : unitScope;
    testInner = tests.kinds[kind] === 1 ? tests.enter(node, testScope) : testScope;
    unitScopes = units.scopes[kind] === 1;
    testScopes = tests.scopes[kind] === 1;
    ts.forEachChild(node, visitChild);
    parent = outer;
    unitInner = unitOuter;
    testInner = testOuter;
    unitScopes = unitScopesOuter;
    testScopes = testScopesOuter;
  };
  visit(sourceFile, unitRoot, testRoot);
}
