import type { Related } from '../types.js';

export function formatRelated(related: Related): string {
  const column = related.column !== undefined && related.column >= 1 ? `:${related.column}` : '';
  const position = related.line >= 1 ? `:${related.line}${column}` : '';
  const message = related.message ? ` ${related.message}` : '';
  return `${related.file}${position}${message}`;
}
