import * as z from 'zod';
import { closest } from '../util/closest.js';
import { rulesSchema } from './schema.js';

export interface ConfigIssue {
  /** Key path inside the file (`tests.ids[0].call`); empty when the issue concerns the whole file. */
  path: string;
  message: string;
  /** 1-based; set for syntax errors, which have a position but no key path. */
  line?: number;
  column?: number;
}

/** A configuration that cannot be found, read, parsed or validated. The CLI exits 2 on it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** Absolute path of the offending file. */
  readonly file: string;
  readonly issues: readonly ConfigIssue[];

  /** `shownAs` is how the message names the file, usually relative to the working directory. */
  constructor(file: string, issues: readonly ConfigIssue[], shownAs: string = file) {
    super(issues.map((issue) => formatIssue(shownAs, issue)).join('\n'));
    this.file = file;
    this.issues = issues;
  }
}

function formatIssue(shownAs: string, issue: ConfigIssue): string {
  if (issue.line !== undefined) return `${shownAs}:${issue.line}:${issue.column ?? 1}: ${issue.message}`;
  if (issue.path === '') return `${shownAs}: ${issue.message}`;
  return `${shownAs}: ${issue.path}: ${issue.message}`;
}

/** Turns zod's issues into one line each, naming the key path, what was expected and what was received. */
export function issuesFromZod(
  issues: readonly z.core.$ZodIssue[],
  root: z.core.$ZodType,
  displayPrefix: readonly PropertyKey[] = [],
): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) collect(issue, issue.path, root, displayPrefix, out);
  return out;
}

function collect(
  issue: z.core.$ZodIssue,
  path: readonly PropertyKey[],
  root: z.core.$ZodType,
  prefix: readonly PropertyKey[],
  out: ConfigIssue[],
): void {
  const shown = (at: readonly PropertyKey[]) => formatPath([...prefix, ...at]);
  if (issue.code === 'invalid_union') {
    const branch = bestBranch(issue.errors);
    if (branch === undefined) {
      out.push({ path: shown(path), message: `${issue.message}, received ${describeShape(issue.input)}` });
      return;
    }
    // Issues inside a union branch carry paths relative to the union.
    for (const inner of branch) collect(inner, [...path, ...inner.path], root, prefix, out);
    return;
  }
  if (issue.code === 'unrecognized_keys') {
    const targets = schemasAt(root, path);
    const known = targets.flatMap(knownKeys);
    const noun = targets.includes(rulesSchema) ? 'unknown rule id' : 'unknown key';
    for (const key of issue.keys) {
      const suggestion = closest(key, known);
      const hint = suggestion === undefined ? `known: ${known.join(', ')}` : `did you mean "${suggestion}"?`;
      out.push({ path: shown([...path, key]), message: `${noun} (${hint})` });
    }
    return;
  }
  out.push({ path: shown(path), message: describeIssue(issue) });
}

// zod reports every member of a failed union. Report the member the value was closest to: a
// member whose very type differs is far, an unknown key is nearer, a wrong nested value nearest.
function bestBranch(branches: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] | undefined {
  const scores = branches.map(distance);
  const min = Math.min(...scores);
  const winners = branches.filter((_, index) => scores[index] === min);
  return winners.length === 1 ? winners[0] : undefined;
}

function distance(issues: readonly z.core.$ZodIssue[]): number {
  let total = 0;
  for (const issue of issues) {
    if (issue.path.length > 0) total += 1;
    else if (issue.code === 'invalid_type') total += 100;
    else if (issue.code === 'invalid_value') total += issue.values.some((v) => typeof v === typeof issue.input) ? 1 : 100;
    else if (issue.code === 'unrecognized_keys') total += 10 * issue.keys.length;
    else if (issue.code === 'invalid_union') total += Math.min(...issue.errors.map(distance));
    else total += 1;
  }
  return total;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      if (issue.input === undefined) return `required (expected ${expected})`;
      // `expected integer, received number` would not say what is wrong with 1.5.
      const received = expected === 'integer' && typeof issue.input === 'number' ? String(issue.input) : typeName(issue.input);
      return `expected ${expected}, received ${received}`;
    }
    case 'invalid_value': {
      const values = issue.values.map((value) => JSON.stringify(value));
      const expected = values.length === 1 ? values.join('') : `one of ${values.join(', ')}`;
      return `expected ${expected}, received ${describeShape(issue.input)}`;
    }
    case 'too_small':
      return `expected ${bound(issue.origin, 'at least', issue.minimum, issue.inclusive)}, received ${describeShape(issue.input)}`;
    case 'too_big':
      return `expected ${bound(issue.origin, 'at most', issue.maximum, issue.inclusive)}, received ${describeShape(issue.input)}`;
    default:
      return issue.message;
  }
}

const TYPE_NAMES: Partial<Record<string, string>> = { int: 'integer', tuple: 'array', record: 'object' };

function bound(origin: string, word: string, limit: number | bigint, inclusive = true): string {
  if (origin === 'string' && word === 'at least' && limit === 1) return 'a non-empty string';
  if (origin === 'array' && word === 'at least' && limit === 1) return 'a non-empty array';
  if (origin === 'string') return `${word} ${limit} characters`;
  if (origin === 'array') return `${word} ${limit} items`;
  const op = word === 'at least' ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<';
  return `a number ${op} ${limit}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function describeShape(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `array of ${value.length}`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    return keys.length === 0 ? '{}' : `{ ${keys.join(', ')} }`;
  }
  if (value === undefined) return 'nothing';
  return JSON.stringify(value);
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType[] {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault || schema instanceof z.ZodOptional) {
    return unwrap(schema.unwrap());
  }
  if (schema instanceof z.ZodUnion) return schema.options.flatMap(unwrap);
  return [schema];
}

/** The schemas that can sit at `path`; several when a union is on the way. */
function schemasAt(root: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType[] {
  let current = unwrap(root);
  for (const segment of path) {
    current = current.flatMap((schema) => {
      if (schema instanceof z.ZodObject && typeof segment === 'string') {
        const child = schema.shape[segment];
        return child === undefined ? [] : unwrap(child);
      }
      if (schema instanceof z.ZodArray) return unwrap(schema.element);
      if (schema instanceof z.ZodRecord) return unwrap(schema.valueType);
      if (schema instanceof z.ZodTuple && typeof segment === 'number') {
        const item = schema.def.items[segment];
        return item === undefined ? [] : unwrap(item);
      }
      return [];
    });
  }
  return current;
}

function knownKeys(schema: z.core.$ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodRecord && schema.keyType instanceof z.ZodEnum) return schema.keyType.options.map(String);
  return [];
}


