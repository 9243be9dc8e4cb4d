import { createHash } from 'node:crypto';
import type * as TS from 'typescript';
import type { TypeScript } from '../parse/typescript.js';
import type { TestModifier } from './types.js';

/** Calls inside a test or suite that skip, park or invert it at run time: `t.skip()`, `this.skip()`, playwright `test.fixme()`. */
export const RUN_TIME_CALLS: ReadonlyMap<string, TestModifier> = new Map<string, TestModifier>([
  ['skip', 'skip'],
  ['fixme', 'skip'],
  ['todo', 'todo'],
  ['fail', 'fails'],
  ['fails', 'fails'],
]);

/** Hashes test and suite bodies; one per file, so that a suite's hash and the hashes of the tests inside it walk each test once. */
export interface BodyHasher {
  /** `sha256:…` of the body: a function's own statements (its timing statements left out), or any other node's tree. */
  hash(node: TS.Node | undefined): string;
}

/**
 * The hash of a test's body (extract-tests.ts), a walk of that body alone:
 * it ignores positions, comments and formatting, and the statements that set
 * the test's timeout, retries or run-time skip (those are facts of their own).
 */
export function bodyHasher(ts: TypeScript, sourceFile: TS.SourceFile): BodyHasher {
  /** Serializations of the functions met while hashing, shared by a suite and the tests inside it. */
  const functionMemo = new Map<TS.Node, { nested: string; own: string }>();
  const kindNames = syntaxKindNames(ts);
  return { hash: hashBody };

  function hashBody(node: TS.Node | undefined): string {
    let text = '';
    if (node && ts.isFunctionLike(node)) text = functionStrings(node).own;
    else if (node) {
      const out: string[] = [];
      serialize(node, out, null);
      text = out.join('');
    }
    return `sha256:${createHash('sha256').update(text).digest('hex')}`;
  }

  /**
   * A function's serialization twice over, from one walk: `nested`, as part of
   * an enclosing body's hash (every statement counts), and `own`, as the body
   * being hashed (its timing statements left out). Memoized, so a suite's hash
   * and the hashes of the tests it contains walk each test once.
   */
  function functionStrings(fn: TS.SignatureDeclaration): { nested: string; own: string } {
    const known = functionMemo.get(fn);
    if (known) return known;
    const out: string[] = [];
    const timing: [number, number][] = [];
    open(fn, out);
    ts.forEachChild(fn, (child) => {
      if (!ts.isBlock(child)) return serialize(child, out, null);
      open(child, out);
      ts.forEachChild(child, (statement) => {
        const start = out.length;
        serialize(statement, out, null);
        if (isTimingStatement(statement, fn)) timing.push([start, out.length]);
      });
      out.push(')');
    });
    out.push(')');
    const nested = out.join('');
    let own = nested;
    if (timing.length > 0) {
      own = '';
      let at = 0;
      for (const [start, end] of timing) {
        own += out.slice(at, start).join('');
        at = end;
      }
      own += out.slice(at).join('');
    }
    const strings = { nested, own };
    functionMemo.set(fn, strings);
    return strings;
  }

  function open(node: TS.Node, out: string[]): void {
    out.push('(', kindNames[node.kind] ?? String(node.kind));
    const text = nodeText(node);
    if (text !== null) out.push(' ', JSON.stringify(text));
  }

  /**
   * The tree as kind names and the texts of names and literals, nothing else:
   * formatting, comments, quotes, trailing commas, semicolons and redundant
   * parentheses do not count; a renamed variable or a changed literal does.
   */
  function serialize(node: TS.Node, out: string[], body: TS.Node | null): void {
    if (ts.isParenthesizedExpression(node)) return serialize(node.expression, out, body);
    if (ts.isParenthesizedTypeNode(node)) return serialize(node.type, out, body);
    if (ts.isEmptyStatement(node)) return;
    if (isTimingStatement(node, body)) return;
    // A function inside the hashed body: no statement of it is the body's own, so its nested form is the same wherever it is met.
    if (node !== body && ts.isFunctionLike(node)) {
      out.push(functionStrings(node).nested);
      return;
    }
    open(node, out);
    ts.forEachChild(node, (child) => serialize(child, out, body));
    out.push(')');
  }

  /**
   * Timeouts, retries and run-time skips are pinned and reported on their own:
   * `this.timeout(n)` or `t.skip()` as a statement of the body is not part of what the test does.
   */
  function isTimingStatement(node: TS.Node, body: TS.Node | null): boolean {
    if (body === null || !ts.isFunctionLike(body) || !ts.isExpressionStatement(node) || !ts.isBlock(node.parent) || node.parent.parent !== body) return false;
    let call: TS.Expression = node.expression;
    if (ts.isAwaitExpression(call)) call = call.expression;
    if (!ts.isCallExpression(call)) return false;
    const context = body.parameters[0]?.name;
    if (ts.isIdentifier(call.expression)) {
      const name = call.expression.text;
      return context !== undefined && ts.isObjectBindingPattern(context) && context.elements.some((e) => ts.isIdentifier(e.name) && e.name.text === name && (e.propertyName ?? e.name).getText(sourceFile) === 'skip');
    }
    if (!ts.isPropertyAccessExpression(call.expression)) return false;
    const { expression, name } = call.expression;
    const isContext = expression.kind === ts.SyntaxKind.ThisKeyword || (context !== undefined && ts.isIdentifier(context) && ts.isIdentifier(expression) && expression.text === context.text);
    return isContext && (name.text === 'timeout' || name.text === 'retries' || name.text === 'slow' || RUN_TIME_CALLS.has(name.text));
  }

  function nodeText(node: TS.Node): string | null {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return node.text;
    if (ts.isStringLiteral(node) || ts.isNumericLiteral(node) || ts.isBigIntLiteral(node) || ts.isRegularExpressionLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) || ts.isJsxText(node)) return node.text;
    // What the children do not show: the operator of `-x`/`!x`/`x++`, const vs let, `import.meta` vs `new.target`.
    if (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) return kindNames[node.operator] ?? String(node.operator);
    if (ts.isVariableDeclarationList(node)) return String(node.flags & (ts.NodeFlags.Const | ts.NodeFlags.Let | ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing));
    if (ts.isMetaProperty(node)) return kindNames[node.keywordToken] ?? String(node.keywordToken);
    if (ts.isTypeOperatorNode(node)) return kindNames[node.operator] ?? String(node.operator);
    if (ts.isHeritageClause(node)) return kindNames[node.token] ?? String(node.token);
    return null;
  }
}

const kindNamesCache = new WeakMap<object, Record<number, string>>();

/**
 * SyntaxKind names for the hash, so that it does not depend on the enum's
 * numbering; the `FirstX`/`LastX` aliases are skipped for the real names.
 */
function syntaxKindNames(ts: TypeScript): Record<number, string> {
  const cached = kindNamesCache.get(ts);
  if (cached) return cached;
  const names: Record<number, string> = {};
  for (const [name, value] of Object.entries(ts.SyntaxKind)) {
    if (typeof value !== 'number' || /^(First|Last)/.test(name)) continue;
    names[value] ??= name;
  }
  kindNamesCache.set(ts, names);
  return names;
}
