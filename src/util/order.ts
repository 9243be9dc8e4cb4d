import type { Finding } from '../types.js';
import { compareText } from './compare.js';

// One order for findings everywhere (the engine, every reporter, the baseline):
// code units, not localeCompare, so that output never depends on the machine's locale.

export function compareFindings(a: Finding, b: Finding): number {
  return compareText(a.file, b.file) || a.line - b.line || a.column - b.column || compareText(a.ruleId, b.ruleId) || compareText(a.message, b.message);
}

export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(compareFindings);
}
