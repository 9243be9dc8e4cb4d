import { parseTree, type Node as JsonNode } from 'jsonc-parser';
import type { Expr, FileFacts, MutationFact } from '../facts/types.js';
import type { Loc } from '../types.js';
import type { RepoModel } from '../model/model.js';
import { loadYaml } from '../parse/yaml.js';
import { FILE_START, lineIndex, rangeLoc } from '../model/positions.js';
import { FORBIDDEN_KEYS, forbiddenKeyMessage } from '../util/json-keys.js';

/** A value evaluated statically, each part with where it was written. */
export type Value =
  | { t: 'str'; v: string; file: string; loc: Loc }
  | { t: 'num'; v: number; file: string; loc: Loc }
  | { t: 'bool'; v: boolean; file: string; loc: Loc }
  | { t: 'null'; file: string; loc: Loc }
  | { t: 'arr'; items: Value[]; file: string; loc: Loc }
  | { t: 'obj'; entries: ObjEntry[]; file: string; loc: Loc }
  /** A property whose value could not be evaluated: an error only for whoever reads it (a test's callback beside its id). */
  | { t: 'err'; errors: EvalError[]; file: string; loc: Loc };

export interface ObjEntry {
  key: string;
  keyFile: string;
  keyLoc: Loc;
  value: Value;
}

export interface EvalError {
  file: string;
  loc: Loc;
  message: string;
  /** The export or dot path asked for does not exist (rather than existing and not evaluating). */
  missing?: true;
}

export interface Evaluated {
  value: Value | null;
  errors: EvalError[];
  /** Every file the evaluation read: the map file, the modules it re-exports through, the files of imported constants. */
  files: string[];
}

/** Alternatives beyond this are not enumerated (a loop over a loop over a table). */
const MAX_ALTERNATIVES = 2000;

/**
 * How many constants deep one evaluation follows references (an alias of an
 * alias, a spread of a spread, an import of an import). Real maps are a few
 * levels deep; each level costs several stack frames, and about a thousand
 * would exhaust the stack and lose the run.
 */
export const MAX_REF_DEPTH = 100;

interface Context {
  errors: EvalError[];
  files: Set<string>;
  /** Constants being evaluated, for cycle detection. */
  active: Set<string>;
  /** How many constants deep this evaluation is (MAX_REF_DEPTH). */
  depth: number;
}

/**
 * Evaluates `Expr` trees from the facts, across files, without running
 * anything. What it cannot evaluate becomes an error naming the node; the rest
 * of the value is still returned, so one bad entry does not hide the others.
 */
export class Evaluator {
  private readonly memo = new Map<string, { values: Value[]; errors: EvalError[]; files: string[] }>();

  constructor(private readonly model: RepoModel) {}

  /** The value of an exported binding of a TS/JS file, or of a dot path in a JSON/YAML file. */
  evaluateRef(file: string, ref: { export?: string | undefined; path?: string | undefined }): Evaluated {
    const context: Context = { errors: [], files: new Set([file]), active: new Set(), depth: 0 };
    return guarded(file, FILE_START, context, () => {
      if (/\.(json|jsonc|ya?ml)$/.test(file)) return this.evaluateDataFile(file, ref.path);
      const values = this.exportValues(file, ref.export ?? 'default', FILE_START, context);
      return { value: values[0] ?? null, errors: context.errors, files: [...context.files] };
    }, () => ({ value: null, errors: context.errors, files: [...context.files] }));
  }

  /** All alternatives of an expression of `file` (several when a loop variable is involved). */
  evaluateExpr(file: string, expr: Expr): { values: Value[]; errors: EvalError[]; files: string[] } {
    const context: Context = { errors: [], files: new Set([file]), active: new Set(), depth: 0 };
    return guarded(file, expr.loc, context, () => {
      const values = this.evaluate(file, expr, context);
      return { values, errors: context.errors, files: [...context.files] };
    }, () => ({ values: [], errors: context.errors, files: [...context.files] }));
  }

  private evaluate(file: string, expr: Expr, context: Context): Value[] {
    const fail = (message: string): Value[] => {
      context.errors.push({ file, loc: expr.loc, message });
      return [];
    };
    switch (expr.k) {
      case 'lit': {
        const v = expr.v;
        if (typeof v === 'string') return [{ t: 'str', v, file, loc: expr.loc }];
        if (typeof v === 'number') return [{ t: 'num', v, file, loc: expr.loc }];
        if (typeof v === 'boolean') return [{ t: 'bool', v, file, loc: expr.loc }];
        return [{ t: 'null', file, loc: expr.loc }];
      }
      case 'arr': {
        // Each alternative of an item (a loop variable) yields an alternative array.
        let alternatives: Value[][] = [[]];
        for (const item of expr.items) {
          if (item.k === 'spread') {
            const spreads = this.evaluate(file, item.e, context).filter((spread) => {
              if (spread.t === 'arr') return true;
              context.errors.push({ file, loc: item.loc, message: 'spread of a value that is not an array' });
              return false;
            });
            if (spreads.length === 0) continue;
            const [only] = alternatives;
            // One alternative and one value (every list without a loop variable): appended in place, not copied per item.
            if (only && alternatives.length === 1 && spreads.length === 1 && spreads[0]?.t === 'arr') only.push(...spreads[0].items);
            else alternatives = product(alternatives, spreads, (items, spread) => (spread.t === 'arr' ? [...items, ...spread.items] : items));
          } else {
            // An item that cannot be evaluated was reported; the rest of the list still counts.
            const values = this.evaluate(file, item, context);
            const [only] = alternatives;
            if (only && alternatives.length === 1 && values.length === 1 && values[0]) only.push(values[0]);
            else if (values.length > 0) alternatives = product(alternatives, values, (items, value) => [...items, value]);
          }
        }
        return alternatives.map((items) => ({ t: 'arr', items, file, loc: expr.loc }));
      }
      case 'obj': {
        let alternatives: ObjEntry[][] = [[]];
        // While there is one alternative (no loop variable), entries are set in place through a key index:
        // a copy per entry made a map of 20,000 entries quadratic.
        const index = new Map<string, number>();
        const setInPlace = (entries: ObjEntry[], entry: ObjEntry): void => {
          const at = index.get(entry.key);
          if (at === undefined) {
            index.set(entry.key, entries.length);
            entries.push(entry);
          } else entries[at] = entry;
        };
        const written = new Map<string, Loc>();
        for (const prop of expr.props) {
          if ('k' in prop) {
            const spreads = this.evaluate(file, prop.e, context).filter((spread) => {
              if (spread.t === 'obj') return true;
              if (spread.t === 'err') context.errors.push(...spread.errors);
              else context.errors.push({ file, loc: prop.loc, message: 'spread of a value that is not an object' });
              return false;
            });
            if (spreads.length === 0) continue;
            const [only] = alternatives;
            if (only && alternatives.length === 1 && spreads.length === 1 && spreads[0]?.t === 'obj') for (const entry of spreads[0].entries) setInPlace(only, entry);
            else alternatives = product(alternatives, spreads, (entries, spread) => (spread.t === 'obj' ? withEntries(entries, spread.entries) : entries));
            continue;
          }
          const [key] = this.evaluate(file, prop.key, context);
          if (!key) continue;
          if (key.t !== 'str' && key.t !== 'num') {
            context.errors.push({ file, loc: prop.key.loc, message: 'a computed key that is not a string' });
            continue;
          }
          const keyText = String(key.v);
          if (keyText === '__proto__') {
            // `{ __proto__: x }` sets the object's prototype: x is no entry of the map, whatever a reader sees.
            context.errors.push({ file, loc: prop.key.loc, message: "a '__proto__' key sets the object's prototype, not an entry: rename it" });
            continue;
          }
          const earlier = written.get(keyText);
          if (earlier) {
            context.errors.push({ file, loc: prop.loc, message: `duplicate key '${keyText}' (first at line ${earlier.line}): JavaScript keeps only the last, and the earlier list is silently dropped` });
          }
          written.set(keyText, prop.loc);
          const inner: Context = { errors: [], files: context.files, active: context.active, depth: context.depth };
          const values = this.evaluate(file, prop.value, inner);
          const stored: Value[] = inner.errors.length > 0 ? [{ t: 'err', errors: inner.errors, file, loc: prop.value.loc }] : values;
          const [only] = alternatives;
          if (only && alternatives.length === 1 && stored.length === 1 && stored[0]) setInPlace(only, { key: keyText, keyFile: file, keyLoc: prop.key.loc, value: stored[0] });
          else alternatives = product(alternatives, stored, (entries, value) => withEntry(entries, { key: keyText, keyFile: file, keyLoc: prop.key.loc, value }));
        }
        return alternatives.map((entries) => ({ t: 'obj', entries, file, loc: expr.loc }));
      }
      case 'spread':
        return fail('a spread outside an array or object');
      case 'ref':
        return this.refValues(file, expr.name, expr.loc, context);
      case 'member': {
        const namespace = expr.obj.k === 'ref' ? this.namespaceTarget(file, expr.obj.name) : null;
        const props = this.evaluate(file, expr.prop, context);
        if (namespace !== null) {
          return props.flatMap((prop) => (prop.t === 'str' ? this.exportValues(namespace, prop.v, expr.loc, context) : []));
        }
        const objects = this.evaluate(file, expr.obj, context);
        const out: Value[] = [];
        for (const object of objects) {
          for (const prop of props) {
            const found = member(object, prop);
            if (found?.t === 'err') context.errors.push(...found.errors);
            else if (found) out.push(found);
            else context.errors.push({ file, loc: expr.loc, message: `no property ${prop.t === 'str' || prop.t === 'num' ? `'${prop.v}'` : '(computed)'} on this value` });
          }
        }
        return out;
      }
      case 'concat': {
        let texts: { v: string }[] = [{ v: '' }];
        for (const part of expr.parts) {
          const values = this.evaluate(file, part, context);
          if (values.length === 0) return [];
          const next: { v: string }[] = [];
          for (const text of texts) {
            for (const value of values) {
              if (value.t === 'err') {
                context.errors.push(...value.errors);
                return [];
              }
              if (value.t === 'arr' || value.t === 'obj') {
                context.errors.push({ file, loc: part.loc, message: 'an array or object inside a string' });
                return [];
              }
              next.push({ v: text.v + (value.t === 'null' ? 'null' : String(value.v)) });
            }
          }
          texts = next.slice(0, MAX_ALTERNATIVES);
        }
        return texts.map((text) => ({ t: 'str', v: text.v, file, loc: expr.loc }));
      }
      case 'each': {
        const out: Value[] = [];
        for (const array of this.evaluate(file, expr.of, context)) {
          if (array.t === 'arr') out.push(...array.items);
          else context.errors.push({ file, loc: expr.of.loc, message: 'a loop over a value that is not an array' });
        }
        return out.slice(0, MAX_ALTERNATIVES);
      }
      case 'param':
        return fail(expr.fn === '<anonymous>' ? 'a parameter of an anonymous function: its value is only known at run time' : `parameter ${expr.index + 1} of '${expr.fn}': no call of '${expr.fn}' in this file passes a constant`);
      case 'unsupported':
        return fail(`cannot evaluate ${expr.why} statically`);
    }
  }

  private refValues(file: string, name: string, loc: Loc, context: Context): Value[] {
    const facts = this.model.facts(file);
    const constant = facts?.constants.find((c) => c.name === name);
    const mutation = facts ? mutationOf(facts, name) : null;
    if (mutation) {
      const through = mutation.name === name ? '' : ` (through '${mutation.name}', which holds it)`;
      // At the reference that needs the value; a map asked for by its export has none, and is named at its declaration.
      const at = isFileStart(loc) ? (constant?.loc ?? mutation.loc) : loc;
      context.errors.push({ file, loc: at, message: `'${name}' is mutated at line ${mutation.loc.line}${through}: \`${mutation.how}\` changes it after its declaration, so its literal is not its value at run time; build the whole value in the declaration` });
      return [];
    }
    if (constant) {
      if (constant.kind !== 'const') {
        context.errors.push({ file, loc, message: `'${name}' is a ${constant.kind} binding: its value can change at run time; declare it const` });
        return [];
      }
      const key = `${file}#${name}`;
      const cached = this.memo.get(key);
      if (cached) return this.replay(cached, context);
      if (context.active.has(key)) {
        context.errors.push({ file, loc, message: `'${name}' refers to itself` });
        return [];
      }
      if (context.depth >= MAX_REF_DEPTH) {
        context.errors.push({ file, loc, message: `'${name}' is nested too deeply: a chain of more than ${MAX_REF_DEPTH} constants (aliases, spreads, imports) is not followed` });
        return [];
      }
      const inner: Context = { errors: [], files: new Set([file]), active: new Set([...context.active, key]), depth: context.depth + 1 };
      const values = this.evaluate(file, constant.expr, inner);
      const result = { values, errors: inner.errors, files: [...inner.files] };
      this.memo.set(key, result);
      return this.replay(result, context);
    }
    for (const fact of facts?.imports ?? []) {
      if (fact.typeOnly) continue;
      const binding = fact.bindings.find((b) => b.local === name && !b.typeOnly);
      if (!binding) continue;
      const target = this.model.resolve(file, fact.specifier);
      if (target.kind !== 'file') {
        context.errors.push({ file, loc, message: `'${name}' is imported from ${target.kind === 'package' ? `the package '${target.name}'` : `'${fact.specifier}', which does not resolve`}: only local files are evaluated` });
        return [];
      }
      if (binding.imported === '*') {
        context.errors.push({ file, loc, message: `'${name}' is a whole module namespace: use one of its exports` });
        return [];
      }
      return this.exportValues(target.path, binding.imported, loc, context);
    }
    context.errors.push({ file, loc, message: `'${name}' is not a constant declared at the top level of this file or imported from a local file` });
    return [];
  }

  private replay(result: { values: Value[]; errors: EvalError[]; files: string[] }, context: Context): Value[] {
    context.errors.push(...result.errors);
    for (const f of result.files) context.files.add(f);
    return result.values;
  }

  private namespaceTarget(file: string, name: string): string | null {
    const facts = this.model.facts(file);
    if (facts?.constants.some((c) => c.name === name)) return null;
    for (const fact of facts?.imports ?? []) {
      const binding = fact.bindings.find((b) => b.local === name && b.imported === '*');
      if (!binding) continue;
      const target = this.model.resolve(file, fact.specifier);
      return target.kind === 'file' ? target.path : null;
    }
    return null;
  }

  private exportValues(file: string, name: string, loc: Loc, context: Context, depth = 0): Value[] {
    context.files.add(file);
    const facts = this.model.facts(file);
    if (!facts) {
      context.errors.push({ file, loc, message: `cannot read the exports of ${file}` });
      return [];
    }
    if (depth > 20) {
      context.errors.push({ file, loc, message: `re-exports of '${name}' go round in a cycle` });
      return [];
    }
    for (const fact of facts.exports) {
      if (fact.kind === 'local' && fact.name === name) return this.refValues(file, fact.local, loc, context);
      if (fact.kind === 'reexport' && fact.name === name) {
        const target = this.model.resolve(file, fact.specifier);
        if (target.kind !== 'file' || fact.imported === '*') {
          context.errors.push({ file, loc: fact.loc, message: `'${name}' is re-exported from '${fact.specifier}', which cannot be evaluated` });
          return [];
        }
        return this.exportValues(target.path, fact.imported, fact.loc, context, depth + 1);
      }
    }
    for (const fact of facts.exports) {
      if (fact.kind !== 'star') continue;
      const target = this.model.resolve(file, fact.specifier);
      if (target.kind !== 'file') continue;
      const targetFacts = this.model.facts(target.path);
      if (targetFacts && exportsName(targetFacts.exports, name)) return this.exportValues(target.path, name, fact.loc, context, depth + 1);
    }
    context.errors.push({ file, loc, message: `${file} has no export '${name}'`, missing: true });
    return [];
  }

  private evaluateDataFile(file: string, path: string | undefined): Evaluated {
    const text = this.model.text(file);
    if (text === null) return { value: null, errors: [{ file, loc: FILE_START, message: `cannot read ${file}` }], files: [file] };
    const errors: EvalError[] = [];
    const root = file.endsWith('.json') || file.endsWith('.jsonc') ? jsonValue(file, text, errors) : yamlValue(file, text, errors);
    let value = root;
    for (const segment of path ? path.split('.') : []) {
      const next = value?.t === 'obj' ? value.entries.find((e) => e.key === segment)?.value : undefined;
      if (!next) {
        errors.push({ file, loc: value?.loc ?? FILE_START, message: `${file} has no '${path}'`, missing: true });
        return { value: null, errors, files: [file] };
      }
      value = next;
    }
    return { value, errors, files: [file] };
  }
}

/**
 * The first write into what `name` holds in its module: into `name` itself, or
 * into a top-level const that is `name` or a part of it (`const ALIAS = MAP`,
 * `const BASIC = MAP.basic`), whose writes change `name`'s value too.
 */
function mutationOf(facts: FileFacts, name: string): MutationFact | null {
  const names = new Set([name]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const constant of facts.constants) {
      if (names.has(constant.name)) continue;
      const root = rootRef(constant.expr);
      if (root !== null && names.has(root)) {
        names.add(constant.name);
        grew = true;
      }
    }
  }
  return facts.mutations.find((mutation) => names.has(mutation.name)) ?? null;
}

function isFileStart(loc: Loc): boolean {
  return loc.line === FILE_START.line && loc.column === FILE_START.column && loc.endLine === FILE_START.endLine && loc.endColumn === FILE_START.endColumn;
}

/** The name an expression reads through member accesses (`MAP` of `MAP.basic[0]`), or null. */
function rootRef(expr: Expr): string | null {
  let current = expr;
  while (current.k === 'member') current = current.obj;
  return current.k === 'ref' ? current.name : null;
}

/**
 * One evaluation, guarded: a value nested deeper than the stack allows (a
 * deeply nested JSON or YAML map, say) is an error at where the evaluation
 * started, never the run lost.
 */
function guarded<T>(file: string, loc: Loc, context: Context, evaluate: () => T, failed: () => T): T {
  try {
    return evaluate();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    context.errors.push({ file, loc, message: /call stack/i.test(error.message) ? 'nested too deeply to evaluate (ran out of stack)' : error.message });
    return failed();
  }
}

function setEntry(entries: ObjEntry[], entry: ObjEntry): void {
  const index = entries.findIndex((e) => e.key === entry.key);
  if (index === -1) entries.push(entry);
  else entries[index] = entry;
}

/** A later entry replaces an earlier one with the same key, in place, as in JavaScript. */
function withEntry(entries: ObjEntry[], entry: ObjEntry): ObjEntry[] {
  const next = [...entries];
  setEntry(next, entry);
  return next;
}

/**
 * `withEntry` for each of `added` in turn, copying once: a map spread from
 * dozens of sub-maps of thousands of entries made the copy per entry quadratic.
 */
function withEntries(entries: readonly ObjEntry[], added: readonly ObjEntry[]): ObjEntry[] {
  const next = [...entries];
  const indexOf = new Map(next.map((entry, index) => [entry.key, index]));
  for (const entry of added) {
    const index = indexOf.get(entry.key);
    if (index === undefined) {
      indexOf.set(entry.key, next.length);
      next.push(entry);
    } else {
      next[index] = entry;
    }
  }
  return next;
}

/** Every combination of an alternative so far with a new value, bounded. */
function product<A, V>(alternatives: A[], values: readonly V[], combine: (alternative: A, value: V) => A): A[] {
  const out: A[] = [];
  for (const alternative of alternatives) {
    for (const value of values) {
      out.push(combine(alternative, value));
      if (out.length >= MAX_ALTERNATIVES) return out;
    }
  }
  return out;
}

function member(object: Value, prop: Value): Value | undefined {
  if (object.t === 'obj' && (prop.t === 'str' || prop.t === 'num')) return object.entries.find((e) => e.key === String(prop.v))?.value;
  if (object.t === 'arr' && prop.t === 'num') return object.items[prop.v];
  if (object.t === 'arr' && prop.t === 'str' && prop.v === 'length') return { t: 'num', v: object.items.length, file: object.file, loc: object.loc };
  return undefined;
}

function exportsName(exports: readonly { kind: string; name?: string }[], name: string): boolean {
  // A type of that name holds no value to evaluate.
  return exports.some((e) => (e.kind !== 'type' && e.name === name) || e.kind === 'star');
}

function jsonValue(file: string, text: string, errors: EvalError[]): Value | null {
  const position = lineIndex(text);
  const parseErrors: { error: number; offset: number; length: number }[] = [];
  const tree = parseTree(text, parseErrors, { allowTrailingComma: true });
  for (const error of parseErrors) errors.push({ file, loc: rangeLoc(position, error.offset, error.offset + error.length), message: `${file} is not valid JSON` });
  if (!tree) return null;
  const convert = (node: JsonNode): Value => {
    const loc = rangeLoc(position, node.offset, node.offset + node.length);
    if (node.type === 'array') return { t: 'arr', items: (node.children ?? []).map(convert), file, loc };
    if (node.type === 'object') {
      const entries: ObjEntry[] = [];
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (!keyNode || !valueNode || typeof keyNode.value !== 'string') continue;
        const keyLoc = rangeLoc(position, keyNode.offset, keyNode.offset + keyNode.length);
        if (FORBIDDEN_KEYS.has(keyNode.value)) {
          errors.push({ file, loc: keyLoc, message: forbiddenKeyMessage(keyNode.value) });
          continue;
        }
        if (entries.some((e) => e.key === keyNode.value)) errors.push({ file, loc: keyLoc, message: `duplicate key '${keyNode.value}': only the last one counts` });
        setEntry(entries, { key: keyNode.value, keyFile: file, keyLoc, value: convert(valueNode) });
      }
      return { t: 'obj', entries, file, loc };
    }
    const v: unknown = node.value;
    if (typeof v === 'string') return { t: 'str', v, file, loc };
    if (typeof v === 'number') return { t: 'num', v, file, loc };
    if (typeof v === 'boolean') return { t: 'bool', v, file, loc };
    return { t: 'null', file, loc };
  };
  return convert(tree);
}

function yamlValue(file: string, text: string, errors: EvalError[]): Value | null {
  const { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } = loadYaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true });
  const locOf = (range: readonly number[] | null | undefined): Loc => {
    const start = range?.[0] ?? 0;
    const end = range?.[1] ?? start;
    const a = lineCounter.linePos(start);
    const b = lineCounter.linePos(end);
    return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
  };
  for (const error of document.errors) errors.push({ file, loc: locOf(error.pos), message: `${file}: ${error.message.split('\n')[0] ?? 'invalid YAML'}` });
  const convert = (node: unknown): Value => {
    if (isMap(node)) {
      const entries: ObjEntry[] = [];
      for (const pair of node.items) {
        if (!isScalar(pair.key)) {
          // `? [a, b]` or `? {a: 1}` (or an alias) as a key: no string key to select by, so the entry cannot be read.
          const range = isNode(pair.key) ? pair.key.range : node.range;
          errors.push({ file, loc: locOf(range), message: 'a key that is not a scalar (a list, a map or an alias used as a key): the entry cannot be evaluated; use a plain string key' });
          continue;
        }
        const key = String(pair.key.value);
        const keyLoc = locOf(pair.key.range);
        if (FORBIDDEN_KEYS.has(key)) {
          errors.push({ file, loc: keyLoc, message: forbiddenKeyMessage(key) });
          continue;
        }
        setEntry(entries, { key, keyFile: file, keyLoc, value: convert(pair.value) });
      }
      return { t: 'obj', entries, file, loc: locOf(node.range) };
    }
    if (isSeq(node)) return { t: 'arr', items: node.items.map(convert), file, loc: locOf(node.range) };
    if (isScalar(node)) {
      const loc = locOf(node.range);
      const v: unknown = node.value;
      if (typeof v === 'string') return { t: 'str', v, file, loc };
      if (typeof v === 'number') return { t: 'num', v, file, loc };
      if (typeof v === 'boolean') return { t: 'bool', v, file, loc };
      return { t: 'null', file, loc };
    }
    return { t: 'null', file, loc: FILE_START };
  };
  return document.contents === null ? null : convert(document.contents);
}
