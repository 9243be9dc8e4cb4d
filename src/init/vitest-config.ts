import type * as TS from 'typescript';
import { loadTypeScript, parseScript, syntaxErrors, unlessTooDeep } from '../parse/typescript.js';

/** The files one vitest config (or one inline project of it) selects, read without running it. */
export interface VitestSelection {
  include: string[] | null; // null: vitest's default (not set, or `configDefaults.include`)
  exclude: string[] | null; // null: vitest's default; spread defaults (`...configDefaults.exclude`) are dropped
  excludeDefaults: boolean; // vitest's default exclude applies: `exclude` is null or spreads it
  dir: string | null; // `test.dir`, else a literal `test.root`
  name: string | null; // `test.name`, for inline projects
  typecheck: boolean | null; // null: set to something unreadable
  typecheckInclude: string[] | null;
  projects: 'none' | 'dynamic' | string[]; // `test.projects` or `test.workspace`: its string entries
  inlineProjects: VitestSelection[]; // its object entries
  evaluable: boolean; // false: include, exclude or dir is set but not readable
}

// vitest's `defaultInclude`, written out where an include array spreads it among its own globs.
const DEFAULT_INCLUDE = '**/*.{test,spec}.?(c|m)[jt]s?(x)';
// vitest's default mode for `vitest` and `vitest run`.
const DEFAULT_MODE = 'test';

type Value =
  | { kind: 'string'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'array'; items: Value[] }
  | { kind: 'object'; props: Map<string, Value> }
  | { kind: 'defaults'; of: 'include' | 'exclude' }
  | { kind: 'function'; node: TS.FunctionLikeDeclaration }
  | { kind: 'undefined' }
  | { kind: 'unknown' };

const UNKNOWN: Value = { kind: 'unknown' };
const UNDEFINED: Value = { kind: 'undefined' };
type Flow = Value | 'break' | undefined;

export function readVitestConfig(path: string, text: string, mode: string | null): VitestSelection {
  return unlessTooDeep(unreadable(), () => {
    const sourceFile = parseScript(path, text);
    if (syntaxErrors(sourceFile).length > 0) return unreadable();
    return selectionOf(createEvaluator(sourceFile, mode ?? DEFAULT_MODE).config());
  });
}

/** The mode names the config's functions compare their mode with, in source order. */
export function vitestModes(path: string, text: string): string[] {
  return unlessTooDeep([], () => modesOf(path, text));
}

function modesOf(path: string, text: string): string[] {
  const ts = loadTypeScript();
  const evaluator = createEvaluator(parseScript(path, text), DEFAULT_MODE);
  evaluator.config();
  const modes = new Set<string>();
  const literal = (node: TS.Expression): string | null => (ts.isStringLiteralLike(node) ? node.text : null);
  const visit = (node: TS.Node): void => {
    if (ts.isBinaryExpression(node) && isEquality(ts, node.operatorToken.kind)) {
      const mode = evaluator.isMode(node.left) ? literal(node.right) : evaluator.isMode(node.right) ? literal(node.left) : null;
      if (mode !== null) modes.add(mode);
    }
    if (ts.isSwitchStatement(node) && evaluator.isMode(node.expression)) {
      for (const clause of node.caseBlock.clauses) {
        const mode = ts.isCaseClause(clause) ? literal(clause.expression) : null;
        if (mode !== null) modes.add(mode);
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const fn of evaluator.called) visit(fn);
  return [...modes];
}

/**
 * The config files vitest reads among one package directory's files (paths relative to it; top level only):
 * vitest configs, vite configs with a `test` key, workspace and project lists.
 */
export function vitestConfigFiles(files: readonly string[], text: (file: string) => string | null): string[] {
  const topLevel = files.filter((file) => !file.includes('/'));
  const vitest = topLevel.filter((file) => /^vitest(?:\.[\w-]+)*\.config\.[cm]?[jt]s$/.test(file));
  const vite = topLevel.filter((file) => /^vite\.config\.[cm]?[jt]s$/.test(file) && hasTestKey(file, text(file) ?? ''));
  const lists = topLevel.filter((file) => /^vitest\.(?:workspace|projects)\.(?:[cm]?[jt]s|json)$/.test(file));
  return [...vitest, ...vite, ...lists];
}

function hasTestKey(path: string, text: string): boolean {
  return unlessTooDeep(false, () => hasTestKeyIn(path, text));
}

function hasTestKeyIn(path: string, text: string): boolean {
  const ts = loadTypeScript();
  const visit = (node: TS.Node): boolean =>
    ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) && node.name.text === 'test') ||
    (ts.forEachChild(node, visit) ?? false);
  return visit(parseScript(path, text));
}

function isEquality(ts: typeof TS, kind: TS.SyntaxKind): boolean {
  const { EqualsEqualsEqualsToken, EqualsEqualsToken, ExclamationEqualsEqualsToken, ExclamationEqualsToken } = ts.SyntaxKind;
  return kind === EqualsEqualsEqualsToken || kind === EqualsEqualsToken || kind === ExclamationEqualsEqualsToken || kind === ExclamationEqualsToken;
}

function createEvaluator(sourceFile: TS.SourceFile, mode: string) {
  const ts = loadTypeScript();
  // Names bound to the config function's env parameter (`env` in `env.mode`) and to its mode (`{ mode }`).
  const envNames = new Set<string>();
  const modeNames = new Set<string>();
  const called: TS.Node[] = [];
  // Declarations and functions being evaluated: a cycle through them is unknown.
  const active = new Set<TS.Node>();

  const unwrap = (node: TS.Expression): TS.Expression => {
    let expr = node;
    while (ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr) || ts.isParenthesizedExpression(expr) || ts.isNonNullExpression(expr) || ts.isAwaitExpression(expr)) expr = expr.expression;
    return expr;
  };
  const isMode = (node: TS.Expression): boolean => {
    const expr = unwrap(node);
    if (ts.isIdentifier(expr)) return modeNames.has(expr.text);
    return ts.isPropertyAccessExpression(expr) && expr.name.text === 'mode' && ts.isIdentifier(expr.expression) && envNames.has(expr.expression.text);
  };
  const keyOf = (name: TS.PropertyName): string | null => (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name) ? name.text : null);

  const guarded = (node: TS.Node, compute: () => Value): Value => {
    if (active.has(node)) return UNKNOWN;
    active.add(node);
    try {
      return compute();
    } finally {
      active.delete(node);
    }
  };

  const evaluate = (node: TS.Expression): Value => {
    const expr = unwrap(node);
    if (isMode(expr)) return { kind: 'string', value: mode };
    if (ts.isStringLiteralLike(expr)) return { kind: 'string', value: expr.text };
    if (expr.kind === ts.SyntaxKind.TrueKeyword || expr.kind === ts.SyntaxKind.FalseKeyword) return { kind: 'bool', value: expr.kind === ts.SyntaxKind.TrueKeyword };
    if (ts.isIdentifier(expr)) return resolve(expr);
    if (ts.isArrowFunction(expr) || ts.isFunctionExpression(expr)) return { kind: 'function', node: expr };
    if (ts.isObjectLiteralExpression(expr)) return objectOf(expr);
    if (ts.isArrayLiteralExpression(expr)) return { kind: 'array', items: expr.elements.flatMap(item) };
    if (ts.isPropertyAccessExpression(expr)) {
      const owner = evaluate(expr.expression);
      return owner.kind === 'object' ? (owner.props.get(expr.name.text) ?? UNDEFINED) : UNKNOWN;
    }
    if (ts.isConditionalExpression(expr)) return truthy(evaluate(expr.condition)) === true ? evaluate(expr.whenTrue) : evaluate(expr.whenFalse);
    if (ts.isPrefixUnaryExpression(expr) && expr.operator === ts.SyntaxKind.ExclamationToken) {
      const value = truthy(evaluate(expr.operand));
      return value === null ? UNKNOWN : { kind: 'bool', value: !value };
    }
    if (ts.isBinaryExpression(expr)) return binary(expr);
    if (ts.isCallExpression(expr)) return call(expr);
    return UNKNOWN;
  };

  const item = (element: TS.Expression): Value[] => {
    if (!ts.isSpreadElement(element)) return [evaluate(element)];
    const spread = evaluate(element.expression);
    return spread.kind === 'array' ? spread.items : [spread];
  };

  const binary = (expr: TS.BinaryExpression): Value => {
    const op = expr.operatorToken.kind;
    if (isEquality(ts, op)) {
      const left = evaluate(expr.left);
      const right = evaluate(expr.right);
      if (left.kind !== 'string' || right.kind !== 'string') return UNKNOWN;
      const negated = op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken;
      return { kind: 'bool', value: (left.value === right.value) !== negated };
    }
    if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken) {
      const left = evaluate(expr.left);
      const decided = truthy(left);
      if (decided === null) return UNKNOWN;
      return decided === (op === ts.SyntaxKind.BarBarToken) ? left : evaluate(expr.right);
    }
    return UNKNOWN;
  };

  const objectOf = (expr: TS.ObjectLiteralExpression): Value => {
    const props = new Map<string, Value>();
    for (const property of expr.properties) {
      if (ts.isSpreadAssignment(property)) {
        // An unreadable spread leaves the keys written beside it as they are.
        const spread = evaluate(property.expression);
        if (spread.kind === 'object') for (const [key, value] of spread.props) props.set(key, value);
        continue;
      }
      const key = property.name === undefined ? null : keyOf(property.name);
      if (key === null) continue;
      if (ts.isPropertyAssignment(property)) props.set(key, evaluate(property.initializer));
      else if (ts.isShorthandPropertyAssignment(property)) props.set(key, resolve(property.name));
    }
    return { kind: 'object', props };
  };

  // A `const` in an enclosing block or at top level; vitest's own exports when nothing local has the name.
  const resolve = (id: TS.Identifier): Value => {
    for (let scope: TS.Node | undefined = id.parent; scope !== undefined; scope = scope.parent) {
      if (!ts.isBlock(scope) && !ts.isSourceFile(scope)) continue;
      for (const statement of scope.statements) {
        if (ts.isFunctionDeclaration(statement) && statement.name?.text === id.text) return { kind: 'function', node: statement };
        if (!ts.isVariableStatement(statement) || (statement.declarationList.flags & ts.NodeFlags.Const) === 0) continue;
        for (const declaration of statement.declarationList.declarations) {
          const { initializer } = declaration;
          if (ts.isIdentifier(declaration.name) && declaration.name.text === id.text) return initializer ? guarded(declaration, () => evaluate(initializer)) : UNDEFINED;
        }
      }
    }
    if (id.text === 'configDefaults') return { kind: 'object', props: new Map<string, Value>([['include', { kind: 'defaults', of: 'include' }], ['exclude', { kind: 'defaults', of: 'exclude' }]]) };
    if (id.text === 'defaultInclude') return { kind: 'defaults', of: 'include' };
    if (id.text === 'defaultExclude') return { kind: 'defaults', of: 'exclude' };
    return id.text === 'undefined' ? UNDEFINED : UNKNOWN;
  };

  const call = (expr: TS.CallExpression): Value => {
    const callee = unwrap(expr.expression);
    const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
    const [first, second] = expr.arguments;
    if (['defineConfig', 'defineProject', 'defineWorkspace'].includes(name) && first) return configValue(first);
    if (name === 'mergeConfig' && first && second) return merge(configValue(first), configValue(second));
    return UNKNOWN;
  };

  const configValue = (node: TS.Expression): Value => {
    const value = evaluate(node);
    return value.kind === 'function' ? invoke(value.node) : value;
  };

  const invoke = (fn: TS.FunctionLikeDeclaration): Value => guarded(fn, () => {
    called.push(fn);
    const param = fn.parameters[0]?.name;
    if (param && ts.isIdentifier(param)) envNames.add(param.text);
    if (param && ts.isObjectBindingPattern(param)) {
      for (const element of param.elements) {
        const key = element.propertyName ? keyOf(element.propertyName) : ts.isIdentifier(element.name) ? element.name.text : null;
        if (key === 'mode' && ts.isIdentifier(element.name)) modeNames.add(element.name.text);
      }
    }
    if (!fn.body) return UNKNOWN;
    if (!ts.isBlock(fn.body)) return evaluate(fn.body);
    const flow = run(fn.body.statements);
    return flow === undefined || flow === 'break' ? UNKNOWN : flow;
  });

  // Statements up to the first `return` on the path the mode takes; a condition that is not known takes the else path.
  const run = (statements: readonly TS.Statement[]): Flow => {
    for (const statement of statements) {
      const flow = step(statement);
      if (flow !== undefined) return flow;
    }
    return undefined;
  };

  const step = (statement: TS.Statement): Flow => {
    if (ts.isReturnStatement(statement)) return statement.expression ? evaluate(statement.expression) : UNDEFINED;
    if (ts.isBreakStatement(statement)) return 'break';
    if (ts.isBlock(statement)) return run(statement.statements);
    if (ts.isIfStatement(statement)) {
      if (truthy(evaluate(statement.expression)) === true) return step(statement.thenStatement);
      return statement.elseStatement ? step(statement.elseStatement) : undefined;
    }
    if (ts.isSwitchStatement(statement)) {
      const subject = evaluate(statement.expression);
      const clauses = statement.caseBlock.clauses;
      const matches = (clause: TS.CaseOrDefaultClause): boolean => {
        if (!ts.isCaseClause(clause) || subject.kind !== 'string') return false;
        const label = evaluate(clause.expression);
        return label.kind === 'string' && label.value === subject.value;
      };
      const start = clauses.findIndex(matches);
      const from = start >= 0 ? start : clauses.findIndex(ts.isDefaultClause);
      if (from < 0) return undefined;
      const flow = run(clauses.slice(from).flatMap((clause) => [...clause.statements]));
      return flow === 'break' ? undefined : flow;
    }
    return undefined;
  };

  const config = (): Value => {
    for (const statement of sourceFile.statements) {
      if (ts.isExportAssignment(statement)) return configValue(statement.expression);
      if (ts.isExpressionStatement(statement) && ts.isBinaryExpression(statement.expression) && statement.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        const target = statement.expression.left;
        if (ts.isPropertyAccessExpression(target) && target.name.text === 'exports' && ts.isIdentifier(target.expression) && target.expression.text === 'module') return configValue(statement.expression.right);
      }
    }
    return UNKNOWN;
  };

  return { config, isMode, called };
}

function truthy(value: Value): boolean | null {
  if (value.kind === 'string') return value.value !== '';
  if (value.kind === 'bool') return value.value;
  if (value.kind === 'undefined') return false;
  return value.kind === 'unknown' ? null : true;
}

// vite's mergeConfig: objects merge deeply, arrays concatenate, anything else is replaced.
function merge(base: Value, override: Value): Value {
  if (base.kind === 'array' && override.kind === 'array') return { kind: 'array', items: [...base.items, ...override.items] };
  if (base.kind !== 'object' || override.kind !== 'object') return override.kind === 'undefined' ? base : override;
  const props = new Map(base.props);
  for (const [key, value] of override.props) props.set(key, merge(props.get(key) ?? UNDEFINED, value));
  return { kind: 'object', props };
}

function unreadable(): VitestSelection {
  return { include: null, exclude: null, excludeDefaults: true, dir: null, name: null, typecheck: null, typecheckInclude: null, projects: 'none', inlineProjects: [], evaluable: false };
}

function selectionOf(config: Value): VitestSelection {
  // A workspace file: `export default ['packages/*', { test: {...} }]`.
  if (config.kind === 'array') return { ...selectionOf({ kind: 'object', props: new Map() }), ...projectsOf(config) };
  if (config.kind !== 'object') return unreadable();
  const test = config.props.get('test') ?? UNDEFINED;
  if (test.kind !== 'object' && test.kind !== 'undefined') return unreadable();
  const get = (key: string): Value => (test.kind === 'object' ? test.props.get(key) : undefined) ?? UNDEFINED;
  let evaluable = true;
  const globs = (value: Value, key: 'include' | 'exclude'): string[] | null => {
    if (value.kind === 'undefined' || (value.kind === 'defaults' && value.of === key)) return null;
    // Spread defaults: the caller adds vitest's default exclude; the default include is one glob, written out.
    const known = (item: Value): string[] | null =>
      item.kind === 'string' ? [item.value] : item.kind === 'defaults' && item.of === key ? (key === 'include' ? [DEFAULT_INCLUDE] : []) : null;
    const parts = value.kind === 'array' ? value.items.map(known) : [null];
    if (parts.every((part) => part !== null)) return parts.flat();
    evaluable = false;
    return null;
  };
  const include = globs(get('include'), 'include');
  const excludeValue = get('exclude');
  const exclude = globs(excludeValue, 'exclude');
  const excludeDefaults = exclude === null || (excludeValue.kind === 'array' && excludeValue.items.some((item) => item.kind === 'defaults' && item.of === 'exclude'));
  const dir = get('dir');
  if (dir.kind !== 'undefined' && dir.kind !== 'string') evaluable = false;
  // `root: __dirname` is common and means the default, so an unreadable root is no reason to give up.
  const literal = (value: Value): string | null => (value.kind === 'string' ? value.value : null);
  return {
    include,
    exclude,
    excludeDefaults,
    dir: dir.kind === 'undefined' ? literal(get('root')) : literal(dir),
    name: literal(get('name')),
    ...typecheckOf(get('typecheck')),
    ...projectsOf(get('projects').kind === 'undefined' ? get('workspace') : get('projects')),
    evaluable,
  };
}

function typecheckOf(value: Value): Pick<VitestSelection, 'typecheck' | 'typecheckInclude'> {
  if (value.kind === 'undefined') return { typecheck: false, typecheckInclude: null };
  if (value.kind === 'bool') return { typecheck: value.value, typecheckInclude: null };
  if (value.kind !== 'object') return { typecheck: null, typecheckInclude: null };
  const enabled = value.props.get('enabled');
  const include = value.props.get('include');
  const globs = include?.kind === 'array' && include.items.every((item) => item.kind === 'string') ? include.items.flatMap((item) => (item.kind === 'string' ? [item.value] : [])) : null;
  // `enabled: !process.env.CI` is on somewhere, so the typecheck files are part of the selection.
  const typecheck = enabled === undefined || enabled.kind === 'undefined' ? include !== undefined : enabled.kind === 'bool' ? enabled.value : true;
  return { typecheck, typecheckInclude: globs };
}

function projectsOf(value: Value): Pick<VitestSelection, 'projects' | 'inlineProjects'> {
  if (value.kind === 'undefined') return { projects: 'none', inlineProjects: [] };
  if (value.kind !== 'array' || !value.items.every((item) => item.kind === 'string' || item.kind === 'object')) return { projects: 'dynamic', inlineProjects: [] };
  return {
    projects: value.items.flatMap((item) => (item.kind === 'string' ? [item.value] : [])),
    inlineProjects: value.items.flatMap((item) => (item.kind === 'object' ? [selectionOf(item)] : [])),
  };
}
