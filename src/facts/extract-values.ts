import type * as TS from 'typescript';
import type { TypeScript } from '../parse/typescript.js';
import type { Loc } from '../types.js';
import type { CallFact, ConstantFact, EnvCompareFact, Expr, MutationFact, ObjProp } from './types.js';
import { kindTable, type KindTable, type Visitor } from './walk.js';

/** Test modifiers that keep a call the same declaration: `describeIfSelected.skipIf(c)('id', …)`. */
const MODIFIERS = new Set(['skip', 'only', 'todo', 'fails', 'concurrent', 'sequential', 'skipIf', 'runIf', 'each', 'for', 'serial', 'if']);
const ARRAY_ITERATORS = new Set(['forEach', 'map', 'flatMap', 'filter', 'some', 'every', 'find']);
const MAX_DEPTH = 12;
/** Wrappers of wrappers are resolved this many levels deep. */
const MAX_WRAPPER_LEVELS = 4;
/** Array methods that change the array they are called on. */
const MUTATING_METHODS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);
/** `Object.*` and `Reflect.*` functions that change their first argument. */
const MUTATING_FUNCTIONS = new Set(['Object.assign', 'Object.defineProperty', 'Object.defineProperties', 'Object.setPrototypeOf', 'Reflect.set', 'Reflect.defineProperty', 'Reflect.deleteProperty', 'Reflect.setPrototypeOf']);
/** The owners of MUTATING_FUNCTIONS: a call on any other object is not one of them, and its name is not built. */
const MUTATING_OWNERS = new Set(['Object', 'Reflect']);

let kinds: KindTable | undefined;

export interface ValueFacts {
  constants: ConstantFact[];
  calls: CallFact[];
  envCompares: EnvCompareFact[];
  mutations: MutationFact[];
}

/**
 * The statically evaluable parts of a file: top-level constants as `Expr`
 * trees, calls to the requested callee names with their arguments, and env
 * comparisons. Parameters and loop variables stay symbolic (`param`, `each`)
 * and wrapper parameters are bound at the wrapper's call sites in this file.
 * A visitor of the one walk (walk.ts): the arguments of the recorded calls are
 * read once the walk has seen every inner `const`, by `facts()`.
 */
export function valuesVisitor(ts: TypeScript, sourceFile: TS.SourceFile, callNames: ReadonlySet<string>, loc: (node: TS.Node) => Loc): Visitor & { facts(): ValueFacts } {
  const constants: ConstantFact[] = [];
  const calls: { node: TS.CallExpression; fact: CallFact }[] = [];
  const envCompares: EnvCompareFact[] = [];
  const mutations: MutationFact[] = [];
  const localCalls = new Map<string, TS.CallExpression[]>();
  /** Block-scoped consts that are not top-level, by name; null when the name is declared twice. */
  const innerConsts = new Map<string, TS.Expression | null>();
  /** A top-level constant's value does not follow inner consts: only the arguments of calls do. */
  let followInnerConsts = false;
  // Inner consts, calls and what mutationOf and the env comparisons read.
  const k = ts.SyntaxKind;
  kinds ??= kindTable(ts, [k.VariableDeclaration, k.CallExpression, k.BinaryExpression, k.PrefixUnaryExpression, k.PostfixUnaryExpression, k.DeleteExpression]);

  const enter = (node: TS.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && node.parent.parent.parent !== sourceFile) {
      if ((node.parent.flags & ts.NodeFlags.Const) !== 0) innerConsts.set(node.name.text, innerConsts.has(node.name.text) ? null : node.initializer);
    }
    if (ts.isCallExpression(node)) {
      if (ts.isIdentifier(node.expression)) {
        const list = localCalls.get(node.expression.text);
        if (list) list.push(node);
        else localCalls.set(node.expression.text, [node]);
      }
      const curried = ts.isCallExpression(node.parent) && node.parent.expression === node;
      // With no names asked for (no ids or self-gate calls configured), no call's names are built.
      if (!curried && callNames.size > 0) {
        const names = calleeNames(node.expression);
        if (names.some((name) => callNames.has(name))) calls.push({ node, fact: { names, args: [], loc: loc(node) } });
      }
    }
    const mutated = mutationOf(node);
    if (mutated) {
      const name = rootName(mutated.target);
      if (name !== null && !isShadowed(node, name)) mutations.push({ name, how: mutated.how(), loc: loc(node) });
    }
    if (ts.isBinaryExpression(node) && isEquality(node.operatorToken.kind)) {
      const pairs: [TS.Expression, TS.Expression][] = [[node.left, node.right], [node.right, node.left]];
      for (const [envSide, literalSide] of pairs) {
        const name = envName(envSide);
        if (name !== null && ts.isStringLiteralLike(literalSide)) envCompares.push({ name, value: literalSide.text, loc: loc(node) });
      }
    }
  };
  const facts = (): ValueFacts => {
    // After the walk, which sets the parent pointers that `identifier` reads.
    for (const statement of sourceFile.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const flags = statement.declarationList.flags;
      const kind = (flags & ts.NodeFlags.Const) !== 0 ? 'const' : (flags & ts.NodeFlags.Let) !== 0 ? 'let' : 'var';
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        const expr: Expr = declaration.initializer ? toExpr(declaration.initializer, 0) : { k: 'unsupported', why: `'${declaration.name.text}' has no initializer`, loc: loc(declaration) };
        constants.push({ name: declaration.name.text, kind, expr, loc: loc(declaration) });
      }
    }
    followInnerConsts = true;
    for (const call of calls) call.fact.args = call.node.arguments.map((arg) => toExpr(arg, 0));
    return { constants, calls: bindWrappers(calls.map((c) => c.fact)), envCompares, mutations };
  };
  return { kinds, enter, facts };

  // ---- helpers (closures over the file)

  /** The object or array a node writes into, with the write shortened for a message (made only for a write that is recorded); null for anything else. */
  function mutationOf(node: TS.Node): { target: TS.Expression; how: () => string } | null {
    if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind) && isAccess(node.left)) {
      return { target: node.left, how: () => `${truncate(node.left.getText(sourceFile))} ${node.operatorToken.getText(sourceFile)} …` };
    }
    if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) && isAccess(node.operand)) {
      return { target: node.operand, how: () => truncate(node.getText(sourceFile)) };
    }
    if (ts.isDeleteExpression(node) && isAccess(node.expression)) return { target: node.expression, how: () => `delete ${truncate(node.expression.getText(sourceFile))}` };
    if (!ts.isCallExpression(node)) return null;
    const callee = unwrap(node.expression);
    const first = node.arguments[0];
    if (first && ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && MUTATING_OWNERS.has(callee.expression.text) && MUTATING_FUNCTIONS.has(`${callee.expression.text}.${callee.name.text}`)) {
      const fn = `${callee.expression.text}.${callee.name.text}`;
      return { target: first, how: () => `${fn}(${truncate(first.getText(sourceFile))}, …)` };
    }
    if (ts.isPropertyAccessExpression(callee) && MUTATING_METHODS.has(callee.name.text)) {
      return { target: callee.expression, how: () => `${truncate(callee.getText(sourceFile))}(…)` };
    }
    return null;
  }

  function isAssignment(kind: TS.SyntaxKind): boolean {
    return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
  }

  function isAccess(node: TS.Expression): boolean {
    const target = unwrap(node);
    return ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target);
  }

  function unwrap(node: TS.Expression): TS.Expression {
    let current = node;
    while (ts.isParenthesizedExpression(current) || ts.isNonNullExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isTypeAssertionExpression(current)) current = current.expression;
    return current;
  }

  /** The identifier an access chain starts from (`MAP` of `MAP.a[0].b`); null when it starts from a call or anything else. */
  function rootName(node: TS.Expression): string | null {
    let current = unwrap(node);
    while (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current)) current = unwrap(current.expression);
    return ts.isIdentifier(current) ? current.text : null;
  }

  /** Whether a declaration between `node` and the top level binds `name` (a parameter, a local, a loop or catch variable). */
  function isShadowed(node: TS.Node, name: string): boolean {
    for (let scope: TS.Node = node.parent; scope !== sourceFile; scope = scope.parent) {
      if (ts.isBlock(scope) || ts.isModuleBlock(scope) || ts.isCaseClause(scope) || ts.isDefaultClause(scope)) {
        for (const statement of scope.statements) {
          if (ts.isVariableStatement(statement) && statement.declarationList.declarations.some((d) => binds(d.name, name))) return true;
          if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name?.text === name) return true;
        }
      }
      if (ts.isFunctionLike(scope) && scope.parameters.some((parameter) => binds(parameter.name, name))) return true;
      if ((ts.isFunctionExpression(scope) || ts.isClassExpression(scope)) && scope.name?.text === name) return true;
      if ((ts.isForStatement(scope) || ts.isForOfStatement(scope) || ts.isForInStatement(scope)) && scope.initializer && ts.isVariableDeclarationList(scope.initializer) && scope.initializer.declarations.some((d) => binds(d.name, name))) return true;
      if (ts.isCatchClause(scope) && scope.variableDeclaration && binds(scope.variableDeclaration.name, name)) return true;
    }
    return false;
  }

  function binds(pattern: TS.BindingName, name: string): boolean {
    if (ts.isIdentifier(pattern)) return pattern.text === name;
    return pattern.elements.some((element) => !ts.isOmittedExpression(element) && binds(element.name, name));
  }

  function isEquality(kind: TS.SyntaxKind): boolean {
    return kind === ts.SyntaxKind.EqualsEqualsEqualsToken || kind === ts.SyntaxKind.ExclamationEqualsEqualsToken || kind === ts.SyntaxKind.EqualsEqualsToken || kind === ts.SyntaxKind.ExclamationEqualsToken;
  }

  function envName(node: TS.Expression): string | null {
    let target = node;
    while (ts.isParenthesizedExpression(target) || ts.isNonNullExpression(target)) target = target.expression;
    if (!ts.isPropertyAccessExpression(target) && !ts.isElementAccessExpression(target)) return null;
    const object = target.expression;
    if (!ts.isPropertyAccessExpression(object) || object.name.text !== 'env') return null;
    const owner = object.expression;
    const isEnv = (ts.isIdentifier(owner) && (owner.text === 'process' || owner.text === 'Bun')) || ts.isMetaProperty(owner);
    if (!isEnv) return null;
    if (ts.isPropertyAccessExpression(target)) return target.name.text;
    return ts.isStringLiteralLike(target.argumentExpression) ? target.argumentExpression.text : null;
  }

  function calleeNames(callee: TS.Expression): string[] {
    if (ts.isIdentifier(callee)) return [callee.text];
    if (ts.isCallExpression(callee)) return calleeNames(callee.expression);
    if (!ts.isPropertyAccessExpression(callee)) return [];
    const segments: string[] = [];
    let current: TS.Expression = callee;
    while (ts.isPropertyAccessExpression(current)) {
      segments.unshift(current.name.text);
      current = current.expression;
    }
    if (ts.isCallExpression(current)) return [segments.at(-1) ?? '', ...calleeNames(current.expression)];
    if (!ts.isIdentifier(current)) return [segments.at(-1) ?? ''];
    const names = [[current.text, ...segments].join('.'), segments.at(-1) ?? ''];
    if (segments.every((segment) => MODIFIERS.has(segment))) names.push(current.text);
    return names;
  }

  function toExpr(node: TS.Expression, depth: number): Expr {
    const at = loc(node);
    if (depth > MAX_DEPTH) return { k: 'unsupported', why: 'expression nested too deeply', loc: at };
    if (ts.isStringLiteralLike(node)) return { k: 'lit', v: node.text, loc: at };
    if (ts.isNumericLiteral(node)) return { k: 'lit', v: Number(node.text), loc: at };
    if (node.kind === ts.SyntaxKind.TrueKeyword) return { k: 'lit', v: true, loc: at };
    if (node.kind === ts.SyntaxKind.FalseKeyword) return { k: 'lit', v: false, loc: at };
    if (node.kind === ts.SyntaxKind.NullKeyword) return { k: 'lit', v: null, loc: at };
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node) || ts.isTypeAssertionExpression(node)) {
      return toExpr(node.expression, depth + 1);
    }
    if (ts.isTemplateExpression(node)) {
      const parts: Expr[] = [{ k: 'lit', v: node.head.text, loc: at }];
      for (const span of node.templateSpans) parts.push(toExpr(span.expression, depth + 1), { k: 'lit', v: span.literal.text, loc: at });
      return { k: 'concat', parts, loc: at };
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      return { k: 'concat', parts: [toExpr(node.left, depth + 1), toExpr(node.right, depth + 1)], loc: at };
    }
    if (ts.isArrayLiteralExpression(node)) {
      return { k: 'arr', items: node.elements.map((element) => (ts.isSpreadElement(element) ? { k: 'spread', e: toExpr(element.expression, depth + 1), loc: loc(element) } : toExpr(element, depth + 1))), loc: at };
    }
    if (ts.isObjectLiteralExpression(node)) {
      const props: ObjProp[] = [];
      for (const property of node.properties) {
        if (ts.isSpreadAssignment(property)) props.push({ k: 'spread', e: toExpr(property.expression, depth + 1), loc: loc(property) });
        else if (ts.isPropertyAssignment(property)) props.push({ key: keyExpr(property.name, depth), value: toExpr(property.initializer, depth + 1), loc: loc(property) });
        else if (ts.isShorthandPropertyAssignment(property)) props.push({ key: { k: 'lit', v: property.name.text, loc: loc(property.name) }, value: identifier(property.name, depth), loc: loc(property) });
        else props.push({ key: { k: 'unsupported', why: 'a method or accessor', loc: loc(property) }, value: { k: 'unsupported', why: 'a method or accessor', loc: loc(property) }, loc: loc(property) });
      }
      return { k: 'obj', props, loc: at };
    }
    if (ts.isIdentifier(node)) return identifier(node, depth);
    if (ts.isPropertyAccessExpression(node)) return { k: 'member', obj: toExpr(node.expression, depth + 1), prop: { k: 'lit', v: node.name.text, loc: loc(node.name) }, loc: at };
    if (ts.isElementAccessExpression(node)) return { k: 'member', obj: toExpr(node.expression, depth + 1), prop: toExpr(node.argumentExpression, depth + 1), loc: at };
    return { k: 'unsupported', why: describe(node), loc: at };
  }

  function keyExpr(name: TS.PropertyName, depth: number): Expr {
    if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return { k: 'lit', v: name.text, loc: loc(name) };
    if (ts.isComputedPropertyName(name)) return toExpr(name.expression, depth + 1);
    return { k: 'unsupported', why: 'a private name', loc: loc(name) };
  }

  /** A name: a parameter or loop variable in scope, an inner const, or a top-level name. */
  function identifier(node: TS.Identifier, depth: number): Expr {
    const name = node.text;
    const at = loc(node);
    if (name === 'undefined') return { k: 'lit', v: null, loc: at };
    for (let scope: TS.Node = node.parent; scope !== sourceFile; scope = scope.parent) {
      const bound = scopeBinding(scope, name, depth, at);
      if (bound) return bound;
    }
    const inner = followInnerConsts ? innerConsts.get(name) : undefined;
    if (inner) return toExpr(inner, depth + 1);
    return { k: 'ref', name, loc: at };
  }

  function scopeBinding(scope: TS.Node, name: string, depth: number, at: Loc): Expr | null {
    if (ts.isForOfStatement(scope) && ts.isVariableDeclarationList(scope.initializer)) {
      const declaration = scope.initializer.declarations[0];
      if (declaration) {
        const each: Expr = { k: 'each', of: toExpr(scope.expression, depth + 1), loc: at };
        const bound = bindPattern(declaration.name, name, each, at);
        if (bound) return bound;
      }
    }
    if (ts.isFunctionLike(scope)) {
      for (const [index, parameter] of scope.parameters.entries()) {
        const symbolic = parameterValue(scope, index, depth, at);
        const bound = bindPattern(parameter.name, name, symbolic, at);
        if (bound) return bound;
      }
    }
    return null;
  }

  /** What a function's parameter stands for: an array element for iterator callbacks, else a wrapper parameter. */
  function parameterValue(fn: TS.SignatureDeclaration, index: number, depth: number, at: Loc): Expr {
    const call = fn.parent;
    if (ts.isCallExpression(call) && call.arguments.some((arg) => arg === fn) && index === 0) {
      const callee = call.expression;
      if (ts.isPropertyAccessExpression(callee) && ARRAY_ITERATORS.has(callee.name.text)) return { k: 'each', of: toExpr(callee.expression, depth + 1), loc: at };
      // `describe.each(table)('title', (row) => …)` and `test.for(table)(…)`.
      if (ts.isCallExpression(callee) && ts.isPropertyAccessExpression(callee.expression) && (callee.expression.name.text === 'each' || callee.expression.name.text === 'for')) {
        const table = callee.arguments[0];
        if (table) return { k: 'each', of: toExpr(table, depth + 1), loc: at };
      }
    }
    return { k: 'param', fn: functionName(fn), index, loc: at };
  }

  function bindPattern(pattern: TS.BindingName, name: string, value: Expr, at: Loc): Expr | null {
    if (ts.isIdentifier(pattern)) return pattern.text === name ? value : null;
    if (ts.isObjectBindingPattern(pattern)) {
      for (const element of pattern.elements) {
        const key = element.propertyName && !ts.isComputedPropertyName(element.propertyName) ? element.propertyName.text : ts.isIdentifier(element.name) ? element.name.text : null;
        if (key === null) continue;
        const bound = bindPattern(element.name, name, { k: 'member', obj: value, prop: { k: 'lit', v: key, loc: at }, loc: at }, at);
        if (bound) return bound;
      }
    }
    if (ts.isArrayBindingPattern(pattern)) {
      for (const [index, element] of pattern.elements.entries()) {
        if (ts.isOmittedExpression(element)) continue;
        const bound = bindPattern(element.name, name, { k: 'member', obj: value, prop: { k: 'lit', v: index, loc: at }, loc: at }, at);
        if (bound) return bound;
      }
    }
    return null;
  }

  function functionName(fn: TS.SignatureDeclaration): string {
    if ((ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)) && fn.name) return fn.name.text;
    const parent = fn.parent;
    if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
    return '<anonymous>';
  }

  function describe(node: TS.Node): string {
    if (ts.isCallExpression(node)) {
      const text = node.expression.getText(sourceFile);
      return `a call to ${text.length > 40 ? `${text.slice(0, 40)}…` : text}()`;
    }
    return `${ts.SyntaxKind[node.kind]} \`${truncate(node.getText(sourceFile))}\``;
  }

  /** Binds wrapper parameters at the wrapper's call sites: `runCase('b6')` makes `runEval({ name: `case-${label}` })` declare `case-b6`. */
  function bindWrappers(facts: CallFact[]): CallFact[] {
    let current = facts;
    for (let level = 0; level < MAX_WRAPPER_LEVELS; level++) {
      let changed = false;
      const next: CallFact[] = [];
      for (const fact of current) {
        const fn = firstParamFunction(fact.args);
        const sites = fn === null ? [] : (localCalls.get(fn) ?? []);
        if (fn === null || sites.length === 0) {
          next.push(fact);
          continue;
        }
        changed = true;
        for (const site of sites) {
          const args = site.arguments.map((arg) => toExpr(arg, 0));
          next.push({ names: fact.names, args: fact.args.map((arg) => substitute(arg, fn, args)), loc: loc(site) });
        }
      }
      current = next;
      if (!changed) break;
    }
    return current;
  }
}

function firstParamFunction(exprs: readonly Expr[]): string | null {
  for (const expr of exprs) {
    const found = findParam(expr);
    if (found !== null) return found;
  }
  return null;
}

function findParam(expr: Expr): string | null {
  switch (expr.k) {
    case 'param':
      return expr.fn === '<anonymous>' ? null : expr.fn;
    case 'arr':
      return firstParamFunction(expr.items);
    case 'obj':
      return firstParamFunction(expr.props.flatMap((p) => ('key' in p ? [p.key, p.value] : [p.e])));
    case 'spread':
      return findParam(expr.e);
    case 'member':
      return findParam(expr.obj) ?? findParam(expr.prop);
    case 'concat':
      return firstParamFunction(expr.parts);
    case 'each':
      return findParam(expr.of);
    default:
      return null;
  }
}

function substitute(expr: Expr, fn: string, args: readonly Expr[]): Expr {
  const sub = (e: Expr): Expr => substitute(e, fn, args);
  switch (expr.k) {
    case 'param':
      return expr.fn === fn ? (args[expr.index] ?? { k: 'lit', v: null, loc: expr.loc }) : expr;
    case 'arr':
      return { ...expr, items: expr.items.map(sub) };
    case 'obj':
      return { ...expr, props: expr.props.map((p) => ('key' in p ? { ...p, key: sub(p.key), value: sub(p.value) } : { ...p, e: sub(p.e) })) };
    case 'spread':
      return { ...expr, e: sub(expr.e) };
    case 'member':
      return { ...expr, obj: sub(expr.obj), prop: sub(expr.prop) };
    case 'concat':
      return { ...expr, parts: expr.parts.map(sub) };
    case 'each':
      return { ...expr, of: sub(expr.of) };
    default:
      return expr;
  }
}

function truncate(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}
