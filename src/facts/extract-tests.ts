import type * as TS from 'typescript';
import type { TypeScript } from '../parse/typescript.js';
import type { Loc } from '../types.js';
import type { Declarations } from './declarations.js';
import type { PinnedTestFact, TestFact, TestModifier } from './types.js';
import { countAssertions } from './test-assertions.js';
import { readsOf, topLevelNames } from './test-reads.js';
import { bodyHasher, RUN_TIME_CALLS as RUNTIME, type BodyHasher } from './test-hash.js';
import { kindTable, type KindTable, type ScopedVisitor } from './walk.js';

type Kind = TestFact['kind'];

/** The global (or imported) names that declare a test or a suite, with the modifier the name implies. */
const BASES: ReadonlyMap<string, { kind: Kind; modifier?: TestModifier }> = new Map<string, { kind: Kind; modifier?: TestModifier }>([
  ['test', { kind: 'test' }],
  ['it', { kind: 'test' }],
  ['specify', { kind: 'test' }],
  ['describe', { kind: 'suite' }],
  ['suite', { kind: 'suite' }],
  ['context', { kind: 'suite' }],
  ['xit', { kind: 'test', modifier: 'skip' }],
  ['xtest', { kind: 'test', modifier: 'skip' }],
  ['xspecify', { kind: 'test', modifier: 'skip' }],
  ['xdescribe', { kind: 'suite', modifier: 'skip' }],
  ['xcontext', { kind: 'suite', modifier: 'skip' }],
  ['xsuite', { kind: 'suite', modifier: 'skip' }],
  ['fit', { kind: 'test', modifier: 'only' }],
  ['fdescribe', { kind: 'suite', modifier: 'only' }],
]);

/** Modules whose exports are the bases above, so that `import { test as check } from 'vitest'` is followed. */
const FRAMEWORKS = new Set(['vitest', '@jest/globals', 'bun:test', 'node:test', 'test', 'mocha', '@playwright/test']);

/** Member modifiers, normalized across frameworks (jest/bun `failing`, playwright `fixme`/`fail`/`serial`, bun `if`/`todoIf`). */
const MEMBER_MODIFIERS: ReadonlyMap<string, TestModifier> = new Map<string, TestModifier>([
  ['skip', 'skip'],
  ['fixme', 'skip'],
  ['only', 'only'],
  ['todo', 'todo'],
  ['fails', 'fails'],
  ['failing', 'fails'],
  ['fail', 'fails'],
  ['concurrent', 'concurrent'],
  ['parallel', 'concurrent'],
  ['sequential', 'sequential'],
  ['serial', 'sequential'],
  ['skipIf', 'skipIf'],
  ['todoIf', 'skipIf'],
  ['runIf', 'runIf'],
  ['if', 'runIf'],
  ['each', 'each'],
  ['for', 'for'],
]);
/** Modifiers applied to arguments before the test call: `test.skipIf(c)(…)`, `test.each(table)(…)`. */
const APPLIED = new Set(['skipIf', 'todoIf', 'runIf', 'if', 'each', 'for']);
const MAX_DEPTH = 20;

let kinds: KindTable | undefined;
let scopes: KindTable | undefined;

interface Entry {
  fact: TestFact;
  parent: Entry | null;
}

interface Scope {
  entry: Entry | null;
  /** The function whose body declares the entry's contents; null at the top of the file. */
  fn: TS.SignatureDeclaration | null;
  /** Names of test-context parameters in scope: node:test's `t`, vitest's `ctx`. */
  contexts: ReadonlySet<string>;
  /** Local names bound to a context's `skip`: vitest's `({ skip }) => …`. */
  skipNames: ReadonlySet<string>;
}

/** A call met by the walk, with the calls nearest inside it. */
interface CallRecord {
  node: TS.CallExpression | null;
  children: { record: CallRecord; slot: number }[];
}

/** Where the walk is: inside which call, and in which of its arguments (-1: its callee). */
export interface CallSlot {
  call: CallRecord;
  slot: number;
}

interface Callee {
  kind: Kind;
  modifiers: TestModifier[];
  /** A modifier that must be applied to arguments first (`skipIf`, `each`) has not been. */
  pending: boolean;
}

/**
 * The test index of one file: every test and suite declared with the
 * vitest/jest/bun/node:test/mocha/playwright shapes, with its id (the titles
 * from the outermost suite down), its modifiers (own and inherited), its
 * timeout and retry options, the number of assertions in its body, and a hash
 * of its body that ignores positions, comments and formatting.
 *
 * A visitor of the one walk (walk.ts): the walk records the framework imports
 * and the tree of calls; `facts()` then decides, with every declaration of the
 * file known, which calls declare tests, visiting a declaration's arguments
 * before its callee (`test.each(table)`'s table belongs to the enclosing suite).
 */
export function testsVisitor(ts: TypeScript, sourceFile: TS.SourceFile, loc: (node: TS.Node) => Loc, declarations: Declarations, pinned: boolean): ScopedVisitor<CallSlot> & { top: CallSlot; facts(): TestFact[]; topNames(): Set<string> } {
  const entries: Entry[] = [];
  const hasher = pinned ? bodyHasher(ts, sourceFile) : null;
  let names: Set<string> | null = null;
  const topNames = (): Set<string> => (names ??= topLevelNames(ts, sourceFile));
  /** BASES, copied only when an import binds a name to another base (`test as check`): most imports bind the names as they are. */
  let bases: ReadonlyMap<string, { kind: Kind; modifier?: TestModifier }> = BASES;
  let ownBases: Map<string, { kind: Kind; modifier?: TestModifier }> | null = null;
  const bind = (local: string, base: { kind: Kind; modifier?: TestModifier }): void => {
    if (bases.get(local) === base) return;
    ownBases ??= new Map(BASES);
    ownBases.set(local, base);
    bases = ownBases;
  };
  const { constants, functions: declared } = declarations;
  /** What the top of the file sets for every test in it: `jest.retryTimes(3)`, playwright's `test.skip(cond)`. */
  const root: Entry = { fact: newFact('suite', '', false, loc(sourceFile)), parent: null };
  const top: CallSlot = { call: { node: null, children: [] }, slot: -1 };
  kinds ??= kindTable(ts, [ts.SyntaxKind.ImportDeclaration, ts.SyntaxKind.CallExpression]);
  // Only a call's arguments are in other slots than their parent.
  scopes ??= kindTable(ts, [ts.SyntaxKind.CallExpression]);

  const enter = (node: TS.Node, at: CallSlot): CallSlot => {
    if (ts.isImportDeclaration(node)) recordImport(node);
    if (!ts.isCallExpression(node)) return at;
    const call: CallRecord = { node, children: [] };
    at.call.children.push({ record: call, slot: at.slot });
    return { call, slot: -1 };
  };
  const scopeOf = (parent: TS.Node, child: TS.Node, inner: CallSlot): CallSlot => {
    if (inner.call.node !== parent) return inner;
    const slot = inner.call.node.arguments.indexOf(child as TS.Expression);
    // The callee and type arguments stay in the callee's slot, which `inner` is.
    return slot === -1 ? inner : { call: inner.call, slot };
  };
  const facts = (): TestFact[] => {
    const scope: Scope = { entry: null, fn: null, contexts: new Set(), skipNames: new Set() };
    for (const child of top.call.children) visit(child.record, scope);
    return finish();
  };
  return { kinds, scopes, enter, scopeOf, top, facts, topNames };

  function finish(): TestFact[] {
    return entries.map(({ fact, parent }) => {
      const inherited = new Set<TestModifier>(root.fact.modifiers);
      let timeout = fact.timeout;
      let retry = fact.retry;
      for (let p = parent; p; p = p.parent) {
        for (const modifier of p.fact.modifiers) inherited.add(modifier);
        if (timeout === undefined) timeout = p.fact.timeout;
        if (retry === undefined) retry = p.fact.retry;
      }
      // null (set, but not evaluable) must survive: only undefined means "not set".
      if (timeout === undefined) timeout = root.fact.timeout;
      if (retry === undefined) retry = root.fact.retry;
      const out: TestFact = { ...fact, inherited: [...inherited].sort() };
      delete out.timeout;
      delete out.retry;
      if (timeout !== undefined) out.timeout = timeout;
      if (retry !== undefined) out.retry = retry;
      out.modifiers = [...new Set(fact.modifiers)].sort();
      return out;
    });
  }

  function newFact(kind: Kind, name: string, dynamic: boolean, at: Loc): TestFact {
    // Pinned facts keep the key order they had before the body fields were split off (their digests are pinned by a test).
    if (pinned) return { kind, name, dynamic, hash: '', assertions: 0, modifiers: [], inherited: [], loc: at } as PinnedTestFact;
    return { kind, name, dynamic, modifiers: [], inherited: [], loc: at };
  }

  function recordImport(node: TS.ImportDeclaration): void {
    if (ts.isStringLiteral(node.moduleSpecifier) && FRAMEWORKS.has(node.moduleSpecifier.text)) {
      const clause = node.importClause;
      // node:test's default export is `test`.
      if (clause?.name && (node.moduleSpecifier.text === 'node:test' || node.moduleSpecifier.text === 'test')) bind(clause.name.text, { kind: 'test' });
      const named = clause?.namedBindings;
      if (named && ts.isNamedImports(named)) {
        for (const element of named.elements) {
          const base = BASES.get((element.propertyName ?? element.name).text);
          if (base) bind(element.name.text, base);
        }
      }
    }
  }

  // ---- the calls, in the order of a walk that enters a declaration's arguments before its callee

  function visit(call: CallRecord, scope: Scope): void {
    const node = call.node;
    if (node && !isApplied(node)) {
      const callee = decompose(node.expression, scope, 0);
      if (callee && !callee.pending && declaresTest(node, callee)) {
        declare(call, node, callee, scope);
        return;
      }
      annotate(node, scope);
    }
    for (const child of call.children) visit(child.record, scope);
  }

  /** `test.skipIf(c)` inside `test.skipIf(c)(…)`: a modifier being applied, not a declaration. */
  function isApplied(node: TS.CallExpression): boolean {
    return ts.isCallExpression(node.parent) && node.parent.expression === node;
  }

  function decompose(expression: TS.Expression, scope: Scope, depth: number): Callee | null {
    if (depth > MAX_DEPTH) return null;
    if (ts.isIdentifier(expression)) {
      const base = bases.get(expression.text);
      if (!base) return null;
      return { kind: base.kind, modifiers: base.modifier ? [base.modifier] : [], pending: false };
    }
    if (ts.isPropertyAccessExpression(expression)) {
      const name = expression.name.text;
      const object = expression.expression;
      // playwright's `test.describe(…)` and node:test's subtests `t.test(…)`.
      if (ts.isIdentifier(object) && (name === 'describe' || name === 'test' || name === 'it') && (bases.has(object.text) || scope.contexts.has(object.text))) {
        return { kind: name === 'describe' ? 'suite' : 'test', modifiers: [], pending: false };
      }
      const modifier = MEMBER_MODIFIERS.get(name);
      if (modifier === undefined) return null;
      const inner = decompose(object, scope, depth + 1);
      if (!inner || inner.pending) return null;
      return { kind: inner.kind, modifiers: [...inner.modifiers, modifier], pending: APPLIED.has(name) };
    }
    if (ts.isCallExpression(expression) || ts.isTaggedTemplateExpression(expression)) {
      const inner = decompose(ts.isCallExpression(expression) ? expression.expression : expression.tag, scope, depth + 1);
      if (!inner || !inner.pending) return null;
      return { ...inner, pending: false };
    }
    return null;
  }

  /**
   * A declaration has a function to run, or a title and nothing else (a
   * pending or todo test). `test.skip()` or `test.skip(cond, 'why')` with no
   * title is playwright's run-time skip of the enclosing scope instead.
   */
  function declaresTest(node: TS.CallExpression, callee: Callee): boolean {
    if (callee.kind === 'test' && node.arguments.length === 0) return false;
    if (parts(node).fn) return true;
    const first = node.arguments[0];
    return first !== undefined && isTitleLike(first);
  }

  function isTitleLike(node: TS.Expression): boolean {
    return ts.isStringLiteralLike(node) || ts.isTemplateExpression(node) || (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken);
  }

  function parts(node: TS.CallExpression): { title: TS.Expression | undefined; fn: TS.Expression | undefined; options: TS.ObjectLiteralExpression | undefined; timeout: TS.Expression | undefined } {
    const args = node.arguments;
    let title: TS.Expression | undefined;
    let fn: TS.Expression | undefined;
    let options: TS.ObjectLiteralExpression | undefined;
    let timeout: TS.Expression | undefined;
    for (const [index, arg] of args.entries()) {
      if (ts.isSpreadElement(arg)) continue;
      if (isFunction(arg)) {
        fn ??= arg;
        continue;
      }
      const object = objectLiteral(arg);
      if (object && (index > 0 || args.length > 1)) {
        options ??= object;
        continue;
      }
      if (index === 0) {
        title = arg;
        continue;
      }
      if (ts.isIdentifier(arg) && isFunctionReference(arg)) fn ??= arg;
      else timeout ??= arg;
    }
    return { title, fn, options, timeout };
  }

  function isFunction(node: TS.Expression): boolean {
    return ts.isArrowFunction(node) || ts.isFunctionExpression(node);
  }

  function isFunctionReference(name: TS.Identifier): boolean {
    const declaration = declared.get(name.text);
    if (declaration) return ts.isFunctionDeclaration(declaration);
    const initializer = constants.get(name.text);
    return initializer ? isFunction(unwrap(initializer)) : false;
  }

  function objectLiteral(node: TS.Expression): TS.ObjectLiteralExpression | undefined {
    let target: TS.Expression = unwrap(node);
    if (ts.isIdentifier(target)) target = unwrap(constants.get(target.text) ?? target);
    return ts.isObjectLiteralExpression(target) ? target : undefined;
  }

  function unwrap(node: TS.Expression): TS.Expression {
    let target = node;
    while (ts.isParenthesizedExpression(target) || ts.isAsExpression(target) || ts.isSatisfiesExpression(target) || ts.isNonNullExpression(target)) target = target.expression;
    return target;
  }

  /** What a frozen test pins of its body (PinnedTestFact): asked for only when the frozen layer reads the file. */
  function pin(fact: PinnedTestFact, target: TS.Node | undefined, hasher: BodyHasher): void {
    fact.hash = hasher.hash(target);
    fact.assertions = target ? countAssertions(ts, target, numberOf) : 0;
    const reads = target ? readsOf(ts, target, topNames()) : [];
    if (reads.length > 0) fact.reads = reads;
  }

  function declare(call: CallRecord, node: TS.CallExpression, callee: Callee, scope: Scope): void {
    const { title, fn, options, timeout } = parts(node);
    const titleText = title ? titleOf(title) : { text: fn ? functionName(fn) : '<anonymous>', dynamic: false };
    const parentName = scope.entry?.fact.name;
    const name = parentName === undefined ? titleText.text : `${parentName} > ${titleText.text}`;
    const fact = newFact(callee.kind, name, titleText.dynamic, loc(node));
    fact.modifiers.push(...callee.modifiers.filter((m) => m !== 'skipIf' && m !== 'runIf'));
    // skipIf(false) and runIf(true) still guard the test: a later edit of the condition skips it silently.
    for (const modifier of callee.modifiers) if (modifier === 'skipIf' || modifier === 'runIf') fact.modifiers.push(modifier);
    if (!fn && callee.kind === 'test' && !fact.modifiers.includes('todo')) fact.modifiers.push('todo');
    if (timeout) fact.timeout = numberOf(timeout, 0);
    if (options) readOptions(options, fact);

    if (hasher) pin(fact as PinnedTestFact, fn ? functionNode(fn) : undefined, hasher);
    const entry: Entry = { fact, parent: scope.entry };
    entries.push(entry);

    let inner: Scope | undefined;
    for (const { record, slot } of call.children) {
      if (slot < 0) continue;
      const arg = node.arguments[slot];
      // A function declared elsewhere is walked where it is declared.
      if (arg === fn && arg && (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg))) visit(record, (inner ??= childScope(entry, arg, callee.kind, scope)));
      else visit(record, scope);
    }
    // The callee's own arguments (a skipIf condition, an each table) belong to the enclosing scope.
    for (const { record, slot } of call.children) if (slot < 0) visit(record, scope);
  }

  function childScope(entry: Entry, fn: TS.SignatureDeclaration, kind: Kind, outer: Scope): Scope {
    const contexts = new Set(outer.contexts);
    const skipNames = new Set(outer.skipNames);
    const first = fn.parameters[0];
    if (kind === 'test' && first) {
      if (ts.isIdentifier(first.name)) contexts.add(first.name.text);
      else if (ts.isObjectBindingPattern(first.name)) {
        for (const element of first.name.elements) {
          const key = element.propertyName && ts.isIdentifier(element.propertyName) ? element.propertyName.text : ts.isIdentifier(element.name) ? element.name.text : null;
          if (key === 'skip' && ts.isIdentifier(element.name)) skipNames.add(element.name.text);
        }
      }
    }
    return { entry, fn, contexts, skipNames };
  }

  /** A function reference is followed to its declaration in this file, so that editing it changes the test's hash. */
  function functionNode(fn: TS.Expression): TS.Node {
    if (!ts.isIdentifier(fn)) return fn;
    const declaration = declared.get(fn.text);
    if (declaration) return declaration;
    return constants.get(fn.text) ?? fn;
  }

  function functionName(fn: TS.Expression): string {
    if (ts.isFunctionExpression(fn) && fn.name) return fn.name.text;
    if (ts.isIdentifier(fn)) return fn.text;
    return '<anonymous>';
  }

  function readOptions(options: TS.ObjectLiteralExpression, fact: TestFact): void {
    for (const property of options.properties) {
      if (!ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property)) continue;
      const key = ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : null;
      const value = ts.isPropertyAssignment(property) ? property.initializer : property.name;
      if (key === 'timeout') fact.timeout = numberOf(value, 0);
      else if (key === 'retry' || key === 'retries') fact.retry = numberOf(value, 0);
      else if (key === 'skip' || key === 'todo' || key === 'only' || key === 'fails' || key === 'concurrent' || key === 'sequential') {
        const on = truthiness(value);
        if (on === false) continue;
        fact.modifiers.push(key === 'skip' && on === null ? 'skipIf' : key);
      }
    }
  }

  /** true, false, or null when the value is only known at run time. */
  function truthiness(node: TS.Expression): boolean | null {
    const target = unwrap(node);
    if (target.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (target.kind === ts.SyntaxKind.FalseKeyword || target.kind === ts.SyntaxKind.NullKeyword) return false;
    if (ts.isIdentifier(target) && target.text === 'undefined') return false;
    if (ts.isStringLiteralLike(target)) return target.text !== '';
    if (ts.isNumericLiteral(target)) return Number(target.text) !== 0;
    return null;
  }

  function numberOf(node: TS.Expression, depth: number): number | null {
    if (depth > MAX_DEPTH) return null;
    const target = unwrap(node);
    if (ts.isNumericLiteral(target)) return Number(target.text);
    if (ts.isPrefixUnaryExpression(target) && target.operator === ts.SyntaxKind.MinusToken) {
      const value = numberOf(target.operand, depth + 1);
      return value === null ? null : -value;
    }
    if (ts.isIdentifier(target)) {
      const initializer = constants.get(target.text);
      return initializer ? numberOf(initializer, depth + 1) : null;
    }
    if (ts.isBinaryExpression(target)) {
      const left = numberOf(target.left, depth + 1);
      const right = numberOf(target.right, depth + 1);
      if (left === null || right === null) return null;
      switch (target.operatorToken.kind) {
        case ts.SyntaxKind.AsteriskToken:
          return left * right;
        case ts.SyntaxKind.PlusToken:
          return left + right;
        case ts.SyntaxKind.MinusToken:
          return left - right;
        default:
          return null;
      }
    }
    return null;
  }

  // ---- calls inside a test or suite that change how it runs

  function annotate(node: TS.CallExpression, scope: Scope): void {
    const callee = node.expression;
    const target = scope.entry ?? root;
    if (ts.isIdentifier(callee) && scope.skipNames.has(callee.text)) {
      target.fact.modifiers.push(isUnconditional(node, scope) ? 'skip' : 'skipIf');
      return;
    }
    if (!ts.isPropertyAccessExpression(callee)) return;
    const member = callee.name.text;
    const object = callee.expression;
    const owner = object.kind === ts.SyntaxKind.ThisKeyword ? 'this' : ts.isIdentifier(object) ? object.text : ts.isPropertyAccessExpression(object) && ts.isIdentifier(object.expression) ? `${object.expression.text}.${object.name.text}` : null;
    // At the top of a module `this` is undefined: only the framework's own settings apply there.
    if (owner === null || (scope.entry === null && (owner === 'this' || scope.contexts.has(owner)))) return;
    const isContext = owner === 'this' || scope.contexts.has(owner) || bases.has(owner);

    if (isContext) {
      const modifier = RUNTIME.get(member);
      if (modifier !== undefined) {
        target.fact.modifiers.push(modifier === 'skip' && !isUnconditional(node, scope) ? 'skipIf' : modifier);
        return;
      }
    }
    const first = node.arguments[0];
    if (first === undefined) return;
    // mocha's `this.timeout(n)`/`this.retries(n)`, jest's and playwright's file- and suite-wide settings.
    if ((owner === 'this' || bases.has(owner)) && (member === 'timeout' || member === 'setTimeout')) target.fact.timeout = numberOf(first, 0);
    else if (owner === 'this' && member === 'retries') target.fact.retry = numberOf(first, 0);
    else if (owner === 'jest' && member === 'retryTimes') target.fact.retry = numberOf(first, 0);
    else if (owner === 'jest' && member === 'setTimeout') target.fact.timeout = numberOf(first, 0);
    else if (owner === 'vi' && member === 'setConfig') {
      const object = objectLiteral(first);
      const property = object?.properties.find((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'testTimeout');
      if (property && ts.isPropertyAssignment(property)) target.fact.timeout = numberOf(property.initializer, 0);
    }
  }

  /** A run-time skip that is a statement of the test body itself, with no condition argument. */
  function isUnconditional(node: TS.CallExpression, scope: Scope): boolean {
    const first = node.arguments[0];
    if (first !== undefined && !ts.isStringLiteralLike(first) && truthiness(first) !== true) return false;
    let statement: TS.Node = node.parent;
    if (ts.isAwaitExpression(statement)) statement = statement.parent;
    if (!ts.isExpressionStatement(statement) && !ts.isReturnStatement(statement)) return false;
    const container = statement.parent;
    if (scope.fn === null) return ts.isSourceFile(container);
    return ts.isBlock(container) && container.parent === scope.fn;
  }

  // ---- titles

  function titleOf(node: TS.Expression): { text: string; dynamic: boolean } {
    const value = constantString(node, 0);
    if (value !== null) return { text: value, dynamic: false };
    const target = unwrap(node);
    if (ts.isTemplateExpression(target)) {
      let dynamic = false;
      let text = target.head.text;
      for (const span of target.templateSpans) {
        const part = constantString(span.expression, 0);
        if (part === null) dynamic = true;
        text += (part ?? `\${${source(span.expression)}}`) + span.literal.text;
      }
      return { text, dynamic };
    }
    if (ts.isBinaryExpression(target) && target.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = titleOf(target.left);
      const right = titleOf(target.right);
      return { text: left.text + right.text, dynamic: left.dynamic || right.dynamic };
    }
    // `describe(Parser, …)` is titled with the function's or class's name.
    if (ts.isIdentifier(target) && declared.has(target.text)) return { text: target.text, dynamic: false };
    return { text: `\${${source(target)}}`, dynamic: true };
  }

  function constantString(node: TS.Expression, depth: number): string | null {
    if (depth > MAX_DEPTH) return null;
    const target = unwrap(node);
    if (ts.isStringLiteralLike(target)) return target.text;
    if (ts.isNumericLiteral(target)) return String(Number(target.text));
    if (ts.isIdentifier(target)) {
      const initializer = constants.get(target.text);
      return initializer ? constantString(initializer, depth + 1) : null;
    }
    if (ts.isTemplateExpression(target)) {
      let text = target.head.text;
      for (const span of target.templateSpans) {
        const part = constantString(span.expression, depth + 1);
        if (part === null) return null;
        text += part + span.literal.text;
      }
      return text;
    }
    if (ts.isBinaryExpression(target) && target.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = constantString(target.left, depth + 1);
      const right = constantString(target.right, depth + 1);
      return left === null || right === null ? null : left + right;
    }
    return null;
  }

  function source(node: TS.Node): string {
    return node.getText(sourceFile).replace(/\s+/g, ' ');
  }
}
