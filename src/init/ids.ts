import type * as TS from 'typescript';
import type { RepoModel } from '../model/model.js';
import { loadTypeScript, parseScript, unlessTooDeep } from '../parse/typescript.js';
import { compareText } from '../util/compare.js';

/** Chained modifiers that leave the callee's role unchanged: `describeIfSelected.skipIf(c)('id', …)`. */
const MODIFIERS = new Set(['skip', 'only', 'todo', 'skipIf', 'runIf', 'each', 'for', 'concurrent', 'sequential', 'fails', 'failing', 'if', 'serial']);
/** Callees whose literal arguments are data, not declarations: assertions, collections, I/O. */
const NOT_DECLARATIONS = /^(?:expect|assert\w*|to[A-Z]\w*|equal|deepEqual|strictEqual|deepStrictEqual|notEqual|ok|is|includes|has|get|set|add|push|delete|log|error|warn|info|debug|join|resolve|readFile\w*|writeFile\w*|existsSync|stat\w*|fetch|request|spawn\w*|exec\w*|require|import|matchesGlob|String|Number|Boolean|Symbol|Set|Map|parse|stringify|replace|split|startsWith|endsWith|filter|map|find|some|every)$/;

export interface CallShape {
  call: string;
  arg: number;
  property?: string;
}

export interface ShapeStats {
  shape: CallShape;
  /** Sites whose literal value is a known key. */
  hits: number;
  /** Sites with a literal at that position. */
  literals: number;
  files: Set<string>;
  /** The known keys its sites pass. */
  keys: Set<string>;
  /** Sites that also pass a function: the call wraps a test body. */
  wrapping: number;
}

export interface IdsInference {
  ids: ShapeStats[];
  selfGate: { shapes: ShapeStats[]; env: { name: string; files: Set<string> }[] };
}

interface Site {
  shape: CallShape;
  values: string[];
  /** The call also passes a function: it wraps tests, as a gate does (`describeTier('gate', () => …)`). */
  wraps: boolean;
}

/**
 * The call shapes that carry paid test ids, found by matching the literal
 * arguments of every call in the paid files against the touchfile map keys;
 * and the self-gates, by matching them against the tier words. A shape is
 * kept when most of its literal values are keys (or tier words), so that
 * `test('explains the diff', …)` titles do not pass for ids.
 */
export function inferIds(model: RepoModel, paidFiles: readonly string[], keys: ReadonlySet<string>, tierWords: readonly string[]): IdsInference {
  const ids = new Map<string, ShapeStats>();
  const gates = new Map<string, ShapeStats>();
  const tiers = new Set(tierWords);
  const env = new Map<string, Set<string>>();
  for (const file of paidFiles) {
    const text = model.text(file);
    if (text === null) continue;
    // init infers from what it can read: a file nested too deeply to parse declares nothing it can see.
    for (const site of unlessTooDeep([], () => callSites(file, text))) {
      if (keys.size > 0) tally(ids, site, file, (value) => keys.has(value));
      if (tiers.size > 0 && site.wraps) tally(gates, site, file, (value) => tiers.has(value));
    }
    for (const compare of model.facts(file)?.envCompares ?? []) {
      if (!tiers.has(compare.value)) continue;
      const files = env.get(compare.name) ?? new Set<string>();
      files.add(file);
      env.set(compare.name, files);
    }
  }
  const kept = (stats: Map<string, ShapeStats>): ShapeStats[] =>
    [...stats.values()].filter((s) => s.hits > 0 && s.hits * 2 >= s.literals).sort((a, b) => b.hits - a.hits || compareText(a.shape.call, b.shape.call));
  const idShapes = oneShapePerId(kept(ids));
  const idKeys = new Set(idShapes.map((s) => shapeKey(s.shape)));
  // A tier helper takes the tier and nothing that is an id; an id helper is never a gate.
  const gateShapes = kept(gates).filter((s) => s.shape.property === undefined && !idKeys.has(shapeKey(s.shape)));
  return { ids: idShapes, selfGate: { shapes: gateShapes, env: [...env].map(([name, files]) => ({ name, files })) } };
}

function tally(stats: Map<string, ShapeStats>, site: Site, file: string, known: (value: string) => boolean): void {
  const key = shapeKey(site.shape);
  const entry = stats.get(key) ?? { shape: site.shape, hits: 0, literals: 0, files: new Set<string>(), keys: new Set<string>(), wrapping: 0 };
  entry.literals++;
  if (site.wraps) entry.wrapping++;
  const hits = site.values.filter(known);
  if (hits.length > 0) {
    entry.hits++;
    entry.files.add(file);
    for (const value of hits) entry.keys.add(value);
  }
  stats.set(key, entry);
}

/**
 * One shape per id: the calls that wrap a test body (`describeEval('id', () => …)`) first, then the others only for ids
 * no kept shape carries. A result store's `recordResult('id', score)` inside the same test is not a second declaration,
 * which would report each missing id twice.
 */
function oneShapePerId(shapes: readonly ShapeStats[]): ShapeStats[] {
  const ordered = [...shapes].sort((a, b) => Number(b.wrapping * 2 >= b.literals) - Number(a.wrapping * 2 >= a.literals));
  const covered = new Set<string>();
  const out: ShapeStats[] = [];
  for (const shape of ordered) {
    if ([...shape.keys].every((key) => covered.has(key))) continue;
    out.push(shape);
    for (const key of shape.keys) covered.add(key);
  }
  return out.sort((a, b) => b.hits - a.hits || compareText(a.shape.call, b.shape.call));
}

export function shapeKey(shape: CallShape): string {
  return `${shape.call}|${shape.arg}|${shape.property ?? ''}`;
}

function callSites(file: string, text: string): Site[] {
  const ts = loadTypeScript();
  const sourceFile = parseScript(file, text);
  const sites: Site[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node)) {
      const call = calleeName(ts, node.expression);
      if (call !== null && !NOT_DECLARATIONS.test(call)) {
        const wraps = node.arguments.some((argument) => ts.isArrowFunction(argument) || ts.isFunctionExpression(argument));
        node.arguments.forEach((argument, arg) => {
          const direct = literalStrings(ts, argument);
          if (direct !== null) sites.push({ shape: { call, arg }, values: direct, wraps });
          if (!ts.isObjectLiteralExpression(argument)) return;
          for (const property of argument.properties) {
            if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) continue;
            const values = literalStrings(ts, property.initializer);
            if (values !== null) sites.push({ shape: { call, arg, property: property.name.text }, values, wraps });
          }
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return sites;
}

function literalStrings(ts: typeof TS, node: TS.Expression): string[] | null {
  let expr = node;
  while (ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr) || ts.isParenthesizedExpression(expr)) expr = expr.expression;
  if (ts.isStringLiteralLike(expr)) return [expr.text];
  if (ts.isArrayLiteralExpression(expr) && expr.elements.length > 0 && expr.elements.every(ts.isStringLiteralLike)) {
    return expr.elements.filter(ts.isStringLiteralLike).map((element) => element.text);
  }
  return null;
}

/** The name a call answers to: `helpers.runEval(…)` → `runEval`; `describeIfSelected.skipIf(c)(…)` → `describeIfSelected`. */
function calleeName(ts: typeof TS, callee: TS.Expression): string | null {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isCallExpression(callee)) return calleeName(ts, callee.expression);
  if (!ts.isPropertyAccessExpression(callee)) return null;
  if (MODIFIERS.has(callee.name.text)) return calleeName(ts, callee.expression);
  return callee.name.text;
}
