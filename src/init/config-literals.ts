import { parse as parseJsonc } from 'jsonc-parser';
import type * as TS from 'typescript';
import { parse as parseYaml } from 'yaml';
import { loadTypeScript, parseScript, unlessTooDeep } from '../parse/typescript.js';
import { isRecord } from '../util/guards.js';

/** A literal option of a runner's config file: its strings, a boolean, or a value that is only known at run time. */
export type Literal = { kind: 'strings'; values: string[] } | { kind: 'bool'; value: boolean } | { kind: 'dynamic' };

/**
 * The literal values of the named properties of a runner's config file,
 * read without running it: `{ test: { include: [...] } }` in a vitest config,
 * `testMatch` in a jest config, `spec` in a `.mocharc`. With `parent`, only
 * properties of an object that is itself the value of a `parent` property.
 */
export function configLiterals(path: string, text: string, names: readonly string[], parent?: string): Map<string, Literal> {
  if (/\.(json|jsonc)$/.test(path)) return dataLiterals(safeJson(text), names, parent);
  if (/\.ya?ml$/.test(path)) return dataLiterals(safeYaml(text), names, parent);
  return unlessTooDeep(new Map(), () => scriptLiterals(path, text, names, parent));
}

/** The same, over parsed data (package.json's `"jest"` key, a JSON or YAML rc file). */
export function dataLiterals(data: unknown, names: readonly string[], parent?: string): Map<string, Literal> {
  const out = new Map<string, Literal>();
  const scope = parent === undefined ? data : isRecord(data) ? data[parent] : undefined;
  if (!isRecord(scope)) return out;
  for (const name of names) {
    const value = scope[name];
    if (value === undefined) continue;
    if (typeof value === 'string') out.set(name, { kind: 'strings', values: [value] });
    else if (typeof value === 'boolean') out.set(name, { kind: 'bool', value });
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) out.set(name, { kind: 'strings', values: value.filter((item) => typeof item === 'string') });
    else out.set(name, { kind: 'dynamic' });
  }
  return out;
}

function scriptLiterals(path: string, text: string, names: readonly string[], parent: string | undefined): Map<string, Literal> {
  const ts = loadTypeScript();
  const sourceFile = parseScript(path, text);
  const wanted = new Set(names);
  const out = new Map<string, Literal>();
  const keyOf = (name: TS.PropertyName): string | null => (ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : null);
  const visit = (node: TS.Node): void => {
    if (ts.isPropertyAssignment(node)) {
      const key = keyOf(node.name);
      if (key !== null && wanted.has(key) && !out.has(key) && inParent(node)) out.set(key, literal(node.initializer));
    }
    ts.forEachChild(node, visit);
  };
  const inParent = (node: TS.PropertyAssignment): boolean => {
    if (parent === undefined) return true;
    const owner = node.parent.parent;
    return ts.isPropertyAssignment(owner) && keyOf(owner.name) === parent;
  };
  const literal = (node: TS.Expression): Literal => {
    let expr = node;
    while (ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr) || ts.isParenthesizedExpression(expr)) expr = expr.expression;
    if (ts.isStringLiteralLike(expr)) return { kind: 'strings', values: [expr.text] };
    if (expr.kind === ts.SyntaxKind.TrueKeyword) return { kind: 'bool', value: true };
    if (expr.kind === ts.SyntaxKind.FalseKeyword) return { kind: 'bool', value: false };
    if (ts.isArrayLiteralExpression(expr)) {
      // `[...configDefaults.exclude, 'fixtures/**']`: the literal part is what the user added.
      const values = expr.elements.filter(ts.isStringLiteralLike).map((element) => element.text);
      const literalOnly = expr.elements.every((element) => ts.isStringLiteralLike(element) || ts.isSpreadElement(element));
      return literalOnly ? { kind: 'strings', values } : { kind: 'dynamic' };
    }
    return { kind: 'dynamic' };
  };
  visit(sourceFile);
  return out;
}

function safeJson(text: string): unknown {
  try {
    const data: unknown = parseJsonc(text, [], { allowTrailingComma: true });
    return data;
  } catch {
    return undefined;
  }
}

function safeYaml(text: string): unknown {
  try {
    const data: unknown = parseYaml(text);
    return data;
  } catch {
    return undefined;
  }
}

export function stringsOf(literal: Literal | undefined): string[] | null {
  return literal?.kind === 'strings' ? literal.values : null;
}
