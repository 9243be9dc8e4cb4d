import type * as TS from 'typescript';
import type { TypeScript } from '../parse/typescript.js';

/** A visitor that looks at every node the same way, wherever it is. */
export interface Visitor {
  enter(node: TS.Node): void;
}

/**
 * A visitor that needs to know where a node is: the walker carries its scope
 * down the tree. `enter` sees a node in the scope its parent gave it and
 * returns the scope inside the node; `scopeOf` narrows that scope for each
 * child (a function's body, a call's third argument).
 */
export interface ScopedVisitor<S> {
  enter(node: TS.Node, scope: S): S;
  scopeOf(parent: TS.Node, child: TS.Node, inner: S): S;
}

/**
 * The one traversal of a script's tree (DESIGN.md "Architecture": one parse,
 * one walk): every node is entered once, parents before children, children in
 * the compiler's order, and handed to each visitor. What a visitor can only
 * decide once it has seen the whole file (a `const` declared further down), it
 * records here and settles after the walk.
 *
 * The tree comes from the parser without parent pointers (`parseScript(…, false)`):
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
  const visitChild = (child: TS.Node): void => {
    (child as { parent: TS.Node }).parent = parent;
    visit(child, units.scopeOf(parent, child, unitInner), tests.scopeOf(parent, child, testInner));
  };
  const visit = (node: TS.Node, unitScope: U, testScope: T): void => {
    for (const visitor of visitors) visitor.enter(node);
    const outer = parent;
    const unitOuter = unitInner;
    const testOuter = testInner;
    parent = node;
    unitInner = units.enter(node, unitScope);
    testInner = tests.enter(node, testScope);
    ts.forEachChild(node, visitChild);
    parent = outer;
    unitInner = unitOuter;
    testInner = testOuter;
  };
  visit(sourceFile, unitRoot, testRoot);
}
