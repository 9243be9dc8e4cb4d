import type * as TS from 'typescript';
import { loadTypeScript, parseScript, syntaxErrors } from '../parse/typescript.js';
import type { RepoModel } from '../model/model.js';
import type { Loc } from '../types.js';

/**
 * Minimal, syntax-preserving edits of a literal map or list written in a
 * TS/JS file: each is one text replacement by UTF-16 offsets, in the style of
 * its neighbours (indentation, quotes, trailing commas). Every function
 * returns null where the edit would need a judgement: a spread, a computed
 * key, a value that is not a literal, a file that does not parse.
 */

export interface Replacement {
  range: [number, number];
  text: string;
}

/** A parsed script and the literal an export of it is initialized with. */
export interface ExportedLiteral {
  text: string;
  source: TS.SourceFile;
  literal: TS.ObjectLiteralExpression | TS.ArrayLiteralExpression;
}

/** This module's entry in the model's per-run memo table: each map file a fix edits is parsed once per run. */
const PARSES = {};

function parse(model: RepoModel, file: string, text: string): TS.SourceFile | null {
  const parses = model.memo(PARSES, () => new Map<string, { text: string; source: TS.SourceFile | null }>());
  const known = parses.get(file);
  if (known?.text === text) return known.source;
  let source: TS.SourceFile | null = parseScript(file, text);
  if (syntaxErrors(source).length > 0) source = null;
  parses.set(file, { text, source });
  return source;
}

/**
 * The object or array literal that `exportName` of `file` is declared with, in
 * `file` itself (`export const X = {…}`, or `const X = {…}` with `export { X }`),
 * through `as const` / `satisfies` / parentheses; null for anything else.
 */
export function exportedLiteral(model: RepoModel, file: string, text: string, exportName: string): ExportedLiteral | null {
  const ts = loadTypeScript();
  const source = parse(model, file, text);
  if (!source) return null;
  let local = exportName;
  let exported = false;
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || statement.moduleSpecifier || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) {
      if (element.name.text === exportName) {
        local = element.propertyName && ts.isIdentifier(element.propertyName) ? element.propertyName.text : element.name.text;
        exported = true;
      }
    }
  }
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement) || (statement.declarationList.flags & ts.NodeFlags.Const) === 0) continue;
    const isExported = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || declaration.name.text !== local || !declaration.initializer) continue;
      if (!exported && !(isExported && local === exportName)) return null;
      const literal = unwrap(ts, declaration.initializer);
      return ts.isObjectLiteralExpression(literal) || ts.isArrayLiteralExpression(literal) ? { text, source, literal } : null;
    }
  }
  return null;
}

function unwrap(ts: typeof TS, node: TS.Expression): TS.Expression {
  let current = node;
  while (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isParenthesizedExpression(current)) current = current.expression;
  return current;
}

/** The property of `literal` whose name (or value) starts at `loc`, when it is a plain `key: value` with a written key. */
export function propertyAt(found: ExportedLiteral, loc: Loc): TS.PropertyAssignment | null {
  const ts = loadTypeScript();
  if (!ts.isObjectLiteralExpression(found.literal)) return null;
  const offset = offsetOf(found.text, loc);
  for (const property of found.literal.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    if (property.name.getStart(found.source) !== offset && property.initializer.getStart(found.source) !== offset) continue;
    return ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) || ts.isNumericLiteral(property.name) ? property : null;
  }
  return null;
}

/** The string literal (or template without substitutions) that starts at `loc`, anywhere in the file. */
export function stringLiteralAt(model: RepoModel, file: string, text: string, loc: Loc): TS.StringLiteral | TS.NoSubstitutionTemplateLiteral | null {
  const ts = loadTypeScript();
  const source = parse(model, file, text);
  if (!source) return null;
  const offset = offsetOf(text, loc);
  let found: TS.StringLiteral | TS.NoSubstitutionTemplateLiteral | null = null;
  const visit = (node: TS.Node): void => {
    if (found || offset < node.pos || offset >= node.end) return;
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.getStart(source) === offset) found = node;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Replaces a string literal's value, keeping its quotes. */
export function replaceString(found: { text: string; source: TS.SourceFile }, literal: TS.StringLiteral | TS.NoSubstitutionTemplateLiteral, value: string): Replacement {
  const start = literal.getStart(found.source);
  const quote = found.text[start] ?? "'";
  return { range: [start, literal.end], text: quoted(value, quote) };
}

/** A literal has spreads or computed keys: which part a new entry belongs to is a judgement, not a mechanical edit. */
export function isPlainLiteral(found: ExportedLiteral): boolean {
  const ts = loadTypeScript();
  const { literal } = found;
  if (ts.isArrayLiteralExpression(literal)) return literal.elements.every((element) => !ts.isSpreadElement(element) && !ts.isOmittedExpression(element));
  return literal.properties.every((property) => ts.isPropertyAssignment(property) && !ts.isComputedPropertyName(property.name));
}

/** Inserts `key: value` as the last property of an object literal, `value` given as strings (one string or a list). */
export function insertProperty(found: ExportedLiteral, key: string, value: string | readonly string[]): Replacement | null {
  const ts = loadTypeScript();
  if (!ts.isObjectLiteralExpression(found.literal) || !isPlainLiteral(found)) return null;
  const quote = quoteStyle(found);
  const keyText = keysAreIdentifiers(found) && /^[A-Za-z_$][\w$]*$/.test(key) ? key : quoted(key, quote);
  const valueText = typeof value === 'string' ? quoted(value, quote) : `[${value.map((v) => quoted(v, quote)).join(', ')}]`;
  return insertLast(found, found.literal.properties, `${keyText}: ${valueText}`);
}

/** Appends a string to an array literal. */
export function appendString(found: ExportedLiteral, value: string): Replacement | null {
  const ts = loadTypeScript();
  if (!ts.isArrayLiteralExpression(found.literal) || !isPlainLiteral(found)) return null;
  return insertLast(found, found.literal.elements, quoted(value, quoteStyle(found)));
}

/** Removes a property with its comma, and its line when it has one of its own. */
export function removeProperty(found: ExportedLiteral, property: TS.PropertyAssignment): Replacement | null {
  const ts = loadTypeScript();
  if (!ts.isObjectLiteralExpression(found.literal)) return null;
  const { text, source } = found;
  const properties = found.literal.properties;
  const index = properties.indexOf(property);
  if (index === -1) return null;
  const start = property.getStart(source);
  const end = property.end;
  const comma = /^\s*,/.exec(text.slice(end));
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const ownLine = text.slice(lineStart, start).trim() === '';
  const isLast = index === properties.length - 1;
  if (isLast && !comma && index > 0) {
    // The file writes no trailing comma: the one before this property goes with it.
    const previous = properties[index - 1];
    if (!previous) return null;
    const from = previous.end;
    return { range: [from, end], text: '' };
  }
  const afterComma = comma ? end + comma[0].length : end;
  if (ownLine) {
    const rest = /^[ \t]*(?:\/\/[^\r\n]*)?\r?\n/.exec(text.slice(afterComma));
    if (rest) return { range: [lineStart, afterComma + rest[0].length], text: '' };
  }
  const spaces = /^[ \t]*/.exec(text.slice(afterComma))?.[0].length ?? 0;
  return { range: [start, comma ? afterComma + spaces : end], text: '' };
}

function insertLast(found: ExportedLiteral, items: TS.NodeArray<TS.Node>, entry: string): Replacement | null {
  const { text, source, literal } = found;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const last = items[items.length - 1];
  const open = literal.getStart(source);
  if (!last) {
    const lineStart = text.lastIndexOf('\n', open - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
    // An empty literal holding a comment: where the entry goes beside it is a judgement.
    if (text.slice(open + 1, literal.end - 1).trim() !== '') return null;
    const comma = /,\r?\n[ \t]*[}\]]/.test(text) ? ',' : '';
    return { range: [open + 1, literal.end - 1], text: `${eol}${indent}  ${entry}${comma}${eol}${indent}` };
  }
  const end = last.end;
  const comma = /^[ \t]*,/.exec(text.slice(end));
  const multiline = source.getLineAndCharacterOfPosition(last.getStart(source)).line !== source.getLineAndCharacterOfPosition(open).line;
  if (!multiline) return comma ? { range: [end + comma[0].length, end + comma[0].length], text: ` ${entry},` } : { range: [end, end], text: `, ${entry}` };
  const lineStart = text.lastIndexOf('\n', last.getStart(source) - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
  if (!comma) return { range: [end, end], text: `,${eol}${indent}${entry}` };
  // After a trailing comment on the last entry's line, so that the comment stays with its entry.
  const afterComma = end + comma[0].length;
  const rest = /^[ \t]*(?:\/\/[^\r\n]*)?(?=\r?\n)/.exec(text.slice(afterComma));
  const at = rest ? afterComma + rest[0].length : afterComma;
  return { range: [at, at], text: `${eol}${indent}${entry},` };
}

/** The quote of the literal's first string (key or value), single by default. */
function quoteStyle(found: ExportedLiteral): string {
  const ts = loadTypeScript();
  let quote: string | null = null;
  const visit = (node: TS.Node): void => {
    if (quote !== null) return;
    if (ts.isStringLiteral(node)) quote = found.text[node.getStart(found.source)] ?? null;
    else ts.forEachChild(node, visit);
  };
  visit(found.literal);
  return quote ?? "'";
}

function keysAreIdentifiers(found: ExportedLiteral): boolean {
  const ts = loadTypeScript();
  if (!ts.isObjectLiteralExpression(found.literal)) return false;
  const names = found.literal.properties.flatMap((property) => (ts.isPropertyAssignment(property) ? [property.name] : []));
  return names.length > 0 && names.every((name) => ts.isIdentifier(name));
}

function quoted(value: string, quote: string): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').split(quote).join(`\\${quote}`);
  return `${quote}${quote === '`' ? escaped.replace(/\$\{/g, '\\${') : escaped}${quote}`;
}

/** The UTF-16 offset of a 1-based line and column. */
export function offsetOf(text: string, loc: Pick<Loc, 'line' | 'column'>): number {
  let offset = 0;
  for (let line = 1; line < loc.line; line++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return offset + loc.column - 1;
}
