import type { CheckResult, Finding } from '../types.js';
import { repositoryPath } from './paths.js';
import type { ReportOptions } from './types.js';
import { sortFindings } from './order.js';
import { formatRelated } from './related.js';

// Same escaping as @actions/core's command.ts (escapeData / escapeProperty); `%` first so escapes are not re-escaped.
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function isPositive(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 1;
}

function properties(finding: Finding, options: Pick<ReportOptions, 'cwd' | 'repoRoot'>): [string, string | number][] {
  const props: [string, string | number][] = [['file', repositoryPath(finding.file, options)]];
  if (isPositive(finding.line)) {
    props.push(['line', finding.line]);
    const endLine = isPositive(finding.endLine) && finding.endLine >= finding.line ? finding.endLine : undefined;
    // GitHub annotations only accept columns on single-line ranges.
    const singleLine = endLine === undefined || endLine === finding.line;
    if (singleLine && isPositive(finding.column)) props.push(['col', finding.column]);
    if (endLine !== undefined) props.push(['endLine', endLine]);
    if (singleLine && isPositive(finding.column) && isPositive(finding.endColumn) && finding.endColumn >= finding.column) {
      props.push(['endColumn', finding.endColumn]);
    }
  }
  if (finding.ruleId) props.push(['title', finding.ruleId]);
  return props;
}

function annotation(finding: Finding, options: Pick<ReportOptions, 'cwd' | 'repoRoot'>): string {
  const command = finding.severity === 'error' ? 'error' : 'warning';
  const props = properties(finding, options)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  const message = [finding.message, ...(finding.related ?? []).map((related) => `↳ ${formatRelated(related)}`)].join('\n');
  return `::${command} ${props}::${escapeData(message)}`;
}

export function github(result: CheckResult, options: Pick<ReportOptions, 'cwd' | 'repoRoot'> = { cwd: '' }): string {
  return sortFindings(result.findings)
    .map((finding) => `${annotation(finding, options)}\n`)
    .join('');
}
