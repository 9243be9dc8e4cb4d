import type * as TS from 'typescript';
import type { TypeScript } from '../parse/typescript.js';
import type { Loc } from '../types.js';
import { calleeName, isEnvObject } from './ast.js';
import type { EnvWriteFact, FlagFact, StringFact, TestProbeFact } from './types.js';
import { kindTable, type KindTable, type Visitor } from './walk.js';

/** Globals only a test runner defines: probing for them is test-runner detection. */
const TEST_GLOBALS = new Set(['describe', 'it', 'test', 'expect', 'vi', 'jest', 'suite', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach']);
const RUNNER_GLOBAL = /^(?:__vitest|__VITEST|__jest|__JEST|jest$|vi$)/;
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);
const MODULE_CALLS = new Set(['require', 'require.resolve', 'vi.mock', 'vi.doMock', 'vi.importActual', 'vi.importMock', 'jest.mock', 'jest.doMock', 'jest.requireActual', 'jest.unstable_mockModule', 'mock.module']);
const OPTION_METHODS = new Set(['option', 'requiredOption', 'addOption']);

const PATH_LIKE = /^(?:\.{1,2}\/)*[\w@.+-]+(?:\/[\w@.+*-]+)+\/?$|^\.{1,2}\/[\w@.+*-]+$/;
const ENV_LIKE = /^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/;
const FLAG_LIKE = /^--?[A-Za-z][\w-]*$/;

let kinds: KindTable | undefined;

export interface SeamFacts {
  envWrites: EnvWriteFact[];
  testProbes: TestProbeFact[];
  strings: StringFact[];
  flags: FlagFact[];
}

/**
 * What shipped-artifact rules need from a script: where it sets env vars,
 * probes for a test runner, names a path, an env var or a flag in a string,
 * and which CLI flags its argument parser declares. A visitor of the one walk
 * (walk.ts); `facts` fill as it enters the nodes.
 */
export function seamsVisitor(ts: TypeScript, sourceFile: TS.SourceFile, loc: (node: TS.Node) => Loc): Visitor & { facts: SeamFacts } {
  const facts: SeamFacts = { envWrites: [], testProbes: [], strings: [], flags: [] };
  const k = ts.SyntaxKind;
  kinds ??= kindTable(ts, [
    k.BinaryExpression,
    k.DeleteExpression,
    k.ObjectLiteralExpression,
    k.CallExpression,
    k.NewExpression,
    k.TypeOfExpression,
    k.PropertyAccessExpression,
    k.ElementAccessExpression,
    k.StringLiteral,
    k.NoSubstitutionTemplateLiteral,
  ]);

  // `const KEY = 'X'; process.env[KEY] = …` writes X: a top-level string constant names the variable.
  const constants = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.initializer && ts.isStringLiteralLike(declaration.initializer)) constants.set(declaration.name.text, declaration.initializer.text);
    }
  }
  const envName = (node: TS.Node): { name: string; node: TS.Node } | null => {
    if (ts.isPropertyAccessExpression(node) && isEnvObject(ts, node.expression)) return { name: node.name.text, node };
    if (!ts.isElementAccessExpression(node) || !isEnvObject(ts, node.expression)) return null;
    const key = node.argumentExpression;
    if (ts.isStringLiteralLike(key)) return { name: key.text, node };
    const constant = ts.isIdentifier(key) ? constants.get(key.text) : undefined;
    return constant === undefined ? null : { name: constant, node };
  };

  const envObjectWrites = (object: TS.ObjectLiteralExpression): void => {
    for (const property of object.properties) {
      if (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) {
        const name = property.name;
        if (ts.isIdentifier(name) || ts.isStringLiteralLike(name)) facts.envWrites.push({ name: name.text, loc: loc(name) });
      }
    }
  };

  const isEnvLiteral = (object: TS.ObjectLiteralExpression): boolean => {
    if (object.properties.some((p) => ts.isSpreadAssignment(p) && isEnvObject(ts, p.expression))) return true;
    const parent = object.parent;
    if (ts.isPropertyAssignment(parent) && parent.initializer === object && (ts.isIdentifier(parent.name) || ts.isStringLiteralLike(parent.name))) {
      return parent.name.text === 'env';
    }
    if (ts.isCallExpression(parent) && calleeName(ts, parent.expression) === 'Object.assign') {
      const target = parent.arguments[0];
      return target !== undefined && target !== object && isEnvObject(ts, target);
    }
    return false;
  };

  const isModuleSpecifier = (node: TS.Node): boolean => {
    const parent = node.parent;
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent) || ts.isLiteralTypeNode(parent)) return true;
    if (ts.isCallExpression(parent) && parent.arguments[0] === node) {
      if (parent.expression.kind === ts.SyntaxKind.ImportKeyword) return true;
      const name = calleeName(ts, parent.expression);
      return name !== null && MODULE_CALLS.has(name);
    }
    return false;
  };

  /** `name`: the callee's dotted name (calleeName), which `enter` has at hand. */
  const recordFlags = (call: TS.CallExpression, name: string | null): void => {
    if (name === 'parseArgs' || name?.endsWith('.parseArgs')) {
      const config = call.arguments[0];
      const options = config && ts.isObjectLiteralExpression(config) ? propertyValue(ts, config, 'options') : undefined;
      if (!options || !ts.isObjectLiteralExpression(options)) return;
      for (const property of options.properties) {
        if (!ts.isPropertyAssignment(property)) continue;
        const key = ts.isIdentifier(property.name) || ts.isStringLiteralLike(property.name) ? property.name.text : null;
        if (key === null) continue;
        facts.flags.push({ name: `--${key}`, loc: loc(property.name) });
        const short = ts.isObjectLiteralExpression(property.initializer) ? propertyValue(ts, property.initializer, 'short') : undefined;
        if (short && ts.isStringLiteralLike(short)) facts.flags.push({ name: `-${short.text}`, loc: loc(short) });
      }
      return;
    }
    const method = ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : null;
    if (method === null || !OPTION_METHODS.has(method)) return;
    const first = call.arguments[0];
    if (first && ts.isStringLiteralLike(first)) optionFlags(first.text, loc(first), facts.flags);
  };

  const enter = (node: TS.Node): void => {
    if (ts.isBinaryExpression(node)) {
      const operator = node.operatorToken.kind;
      if (operator >= ts.SyntaxKind.FirstAssignment && operator <= ts.SyntaxKind.LastAssignment) {
        const target = envName(node.left);
        if (target) facts.envWrites.push({ name: target.name, loc: loc(target.node) });
      }
      if (operator === ts.SyntaxKind.InKeyword && ts.isStringLiteralLike(node.left) && isEnvObject(ts, node.right)) {
        facts.testProbes.push({ via: 'env-in', name: node.left.text, loc: loc(node) });
      }
    } else if (ts.isDeleteExpression(node)) {
      const target = envName(node.expression);
      if (target) facts.envWrites.push({ name: target.name, loc: loc(target.node) });
    } else if (ts.isObjectLiteralExpression(node)) {
      if (isEnvLiteral(node)) envObjectWrites(node);
    } else if (ts.isCallExpression(node)) {
      const name = calleeName(ts, node.expression);
      const first = node.arguments[0];
      if ((name === 'vi.stubEnv' || name === 'stubEnv') && first && ts.isStringLiteralLike(first)) facts.envWrites.push({ name: first.text, loc: loc(first) });
      recordFlags(node, name);
    } else if (ts.isNewExpression(node)) {
      const first = node.arguments?.[0];
      if (calleeName(ts, node.expression) === 'Option' && first && ts.isStringLiteralLike(first)) optionFlags(first.text, loc(first), facts.flags);
    } else if (ts.isTypeOfExpression(node)) {
      if (ts.isIdentifier(node.expression) && TEST_GLOBALS.has(node.expression.text)) facts.testProbes.push({ via: 'typeof', name: node.expression.text, loc: loc(node) });
    } else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const owner = node.expression;
      const member = ts.isPropertyAccessExpression(node) ? node.name.text : ts.isStringLiteralLike(node.argumentExpression) ? node.argumentExpression.text : null;
      if (ts.isIdentifier(owner) && GLOBAL_OBJECTS.has(owner.text) && member !== null && RUNNER_GLOBAL.test(member)) {
        facts.testProbes.push({ via: 'global', name: member, loc: loc(node) });
      }
    }
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && looksLikeReference(node.text) && !isModuleSpecifier(node)) {
      facts.strings.push({ value: node.text, loc: loc(node) });
    }
  };
  return { kinds, enter, facts };
}

/** Every string literal of the file comes here: each pattern runs only where the characters it requires are (a `/`, a leading capital, a leading `-`). */
function looksLikeReference(text: string): boolean {
  if (text.length > 300) return false;
  const first = text.charCodeAt(0);
  return (text.includes('/') && PATH_LIKE.test(text)) || (first >= 65 && first <= 90 && ENV_LIKE.test(text)) || (first === 45 && FLAG_LIKE.test(text));
}

function propertyValue(ts: TypeScript, object: TS.ObjectLiteralExpression, key: string): TS.Expression | undefined {
  for (const property of object.properties) {
    if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteralLike(property.name)) && property.name.text === key) return property.initializer;
  }
  return undefined;
}

/** `'-b, --base <ref>'` (commander), `'--base'` (cac), `'base'` (yargs). */
function optionFlags(spec: string, at: Loc, into: FlagFact[]): void {
  const flags = [...spec.matchAll(/(?:^|[\s,|])(--?[A-Za-z][\w-]*)/g)].map((match) => match[1] ?? '');
  if (flags.length === 0 && /^[A-Za-z][\w-]*$/.test(spec)) flags.push(spec.length === 1 ? `-${spec}` : `--${spec}`);
  for (const name of flags) if (name !== '') into.push({ name, loc: at });
}
