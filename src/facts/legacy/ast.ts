// TEMPORARY (issue 17 item 4): a frozen copy of the extractor before the one-walk rewrite, for the parity test; deleted once parity holds.
import type * as TS from 'typescript';
import type { TypeScript } from '../../parse/typescript.js';

// Small questions about one syntax node that more than one extractor asks.

/** Dotted name of a callee (`a.b.c`), through `new`, `!`, parentheses; null for anything else. */
export function calleeName(ts: TypeScript, node: TS.Node): string | null {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) {
    const left = calleeName(ts, node.expression);
    return left === null ? null : `${left}.${node.name.text}`;
  }
  if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node)) return calleeName(ts, node.expression);
  if (node.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  return null;
}

/** `process.env`, `Bun.env`, `import.meta.env`, `Deno.env` (for `.get`), `globalThis.process.env`. */
export function isEnvObject(ts: TypeScript, node: TS.Expression): boolean {
  if (!ts.isPropertyAccessExpression(node) || node.name.text !== 'env') return false;
  const object = node.expression;
  if (ts.isIdentifier(object)) return object.text === 'process' || object.text === 'Bun';
  if (ts.isMetaProperty(object)) return true;
  return ts.isPropertyAccessExpression(object) && object.name.text === 'process' && ts.isIdentifier(object.expression) && object.expression.text === 'globalThis';
}

/**
 * Whether a comment (`//` or `/*`) starts exactly at `offset` in the file's
 * code: not inside a string, a template or a regular expression, and not in
 * the middle of another comment (a JSDoc line that shows the syntax).
 */
export function commentStartsAt(ts: TypeScript, sourceFile: TS.SourceFile, offset: number): boolean {
  const text = sourceFile.text;
  let node: TS.Node = sourceFile;
  let before = 0;
  for (;;) {
    let inside: TS.Node | undefined;
    node.forEachChild((child) => {
      if (inside !== undefined) return;
      if (child.pos <= offset && offset < child.end) inside = child;
      else if (child.end <= offset) before = child.end;
    });
    if (inside === undefined) break;
    node = inside;
    // A node's range starts with the trivia before its first token: a comment there is the node's leading comment.
    if (offset < node.getStart(sourceFile)) return commentsAt(ts, text, node.pos).some((range) => range.pos === offset);
    before = node.pos;
  }
  if (isDataToken(ts, node.kind)) return false;
  // Between the tokens of a node: the trivia after the last child that ends before the offset.
  return commentsAt(ts, text, before).some((range) => range.pos === offset);
}

/** The comments in the trivia at `pos`: those on its own line (the compiler's "trailing") and those on the lines after. */
function commentsAt(ts: TypeScript, text: string, pos: number): TS.CommentRange[] {
  return [...(ts.getTrailingCommentRanges(text, pos) ?? []), ...(ts.getLeadingCommentRanges(text, pos) ?? [])];
}

function isDataToken(ts: TypeScript, kind: TS.SyntaxKind): boolean {
  const k = ts.SyntaxKind;
  return (
    kind === k.StringLiteral ||
    kind === k.NoSubstitutionTemplateLiteral ||
    kind === k.TemplateHead ||
    kind === k.TemplateMiddle ||
    kind === k.TemplateTail ||
    kind === k.RegularExpressionLiteral ||
    kind === k.JsxText
  );
}
