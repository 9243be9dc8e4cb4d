import type * as TS from 'typescript';
import type { TypeScript } from '../parse/typescript.js';

// Small questions about one syntax node that more than one extractor asks.

/** Dotted name of a callee (`a.b.c`), through `new`, `!`, parentheses; null for anything else. */
export function calleeName(ts: TypeScript, node: TS.Node): string | null {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) {
    const left = calleeName(ts, node.expression);
    return left === null ? null : `${left}.${node.name.text}`;
  }
  if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node)) return calleeName(ts, node.expression);
  if (node.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  return null;
}

/** `process.env`, `Bun.env`, `import.meta.env`, `Deno.env` (for `.get`), `globalThis.process.env`. */
export function isEnvObject(ts: TypeScript, node: TS.Expression): boolean {
  if (!ts.isPropertyAccessExpression(node) || node.name.text !== 'env') return false;
  const object = node.expression;
  if (ts.isIdentifier(object)) return object.text === 'process' || object.text === 'Bun';
  if (ts.isMetaProperty(object)) return true;
  return ts.isPropertyAccessExpression(object) && object.name.text === 'process' && ts.isIdentifier(object.expression) && object.expression.text === 'globalThis';
}
