import type * as TS from 'typescript';
import type { TypeScript } from '../parse/typescript.js';

const EXPECT_MEMBERS = new Set(['soft', 'poll', 'element']);

/**
 * The number of assertions in a test's body (extract-tests.ts), a walk of
 * that body alone; `numberOf` evaluates a plan's argument (null: unknown).
 *
 * `expect(…)` counts once it is chained to a matcher (a bare `expect(x)`
 * asserts nothing), as do `expect.soft/poll(…)` chains, `assert(…)`,
 * `assert.*(…)`, `t.assert.*(…)` and `should` chains; `expect.assertions(n)`
 * and `t.plan(n)` raise the count to n.
 */
export function countAssertions(ts: TypeScript, root: TS.Node, numberOf: (node: TS.Expression, depth: number) => number | null): number {
  let count = 0;
  let planned = 0;
  const walk = (node: TS.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const chained = (ts.isPropertyAccessExpression(node.parent) || ts.isElementAccessExpression(node.parent)) && node.parent.expression === node;
      if (ts.isIdentifier(callee)) {
        if ((callee.text === 'expect' || callee.text === 'expectTypeOf') && chained) count++;
        else if (callee.text === 'assert' || callee.text === 'assertType') count++;
      } else if (ts.isPropertyAccessExpression(callee)) {
        const path = memberPath(ts, callee);
        const member = callee.name.text;
        const first = node.arguments[0];
        if (path[0] === 'expect' && path.length === 2 && EXPECT_MEMBERS.has(member) && chained) count++;
        else if ((path[0] === 'expect' && member === 'assertions') || (path.length === 2 && member === 'plan')) {
          const value = first ? numberOf(first, 0) : null;
          if (value !== null) planned = Math.max(planned, value);
        } else if (path.includes('assert') || path.includes('should')) count++;
      }
    }
    ts.forEachChild(node, walk);
  };
  walk(root);
  return Math.max(count, planned);
}

function memberPath(ts: TypeScript, node: TS.Expression): string[] {
  const path: string[] = [];
  let current: TS.Expression = node;
  while (ts.isPropertyAccessExpression(current)) {
    path.unshift(current.name.text);
    current = current.expression;
  }
  if (ts.isIdentifier(current)) path.unshift(current.text);
  else if (current.kind === ts.SyntaxKind.ThisKeyword) path.unshift('this');
  else path.unshift('');
  return path;
}
