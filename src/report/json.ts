import type { CheckResult, Finding, Related, Summary, TextEdit } from '../types.js';
import { sortFindings } from './order.js';

// Keys are listed explicitly so the output order is the contract's, whatever order producers build objects in.
function toRelated(related: Related): Related {
  return { file: related.file, line: related.line, column: related.column, message: related.message };
}

/** A fix, shown as ESLint's JSON shows a suggestion (its edits can span files, hence a list). */
interface Suggestion {
  messageId: string;
  desc: string;
  edits: TextEdit[];
}

function toFinding(finding: Finding): Omit<Finding, 'fix'> & { suggestions?: Suggestion[] } {
  return {
    ruleId: finding.ruleId,
    messageId: finding.messageId,
    severity: finding.severity,
    file: finding.file,
    line: finding.line,
    column: finding.column,
    endLine: finding.endLine,
    endColumn: finding.endColumn,
    message: finding.message,
    related: finding.related?.length ? finding.related.map(toRelated) : undefined,
    suggestions: finding.fix
      ? [{ messageId: finding.fix.messageId, desc: finding.fix.description, edits: finding.fix.edits.map((edit) => ({ file: edit.file, range: edit.range, text: edit.text })) }]
      : undefined,
  };
}

function toSummary(summary: Summary): Summary {
  return {
    errors: summary.errors,
    warnings: summary.warnings,
    files: summary.files,
    rules: summary.rules,
    ms: summary.ms,
    suppressed: summary.suppressed,
    baselined: summary.baselined,
    baselineFixed: summary.baselineFixed,
    baselineWritten: summary.baselineWritten,
    cached: summary.cached,
    stats: summary.stats,
  };
}

export function json(result: CheckResult): string {
  const output = { findings: sortFindings(result.findings).map(toFinding), summary: toSummary(result.summary) };
  return `${JSON.stringify(output, null, 2)}\n`;
}
