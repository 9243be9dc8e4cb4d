import { styleText } from 'node:util';
import type { CheckResult, Finding, Summary } from '../types.js';
import { displayPath } from './paths.js';
import type { ReportOptions } from './types.js';
import { groupByFile } from './order.js';
import { formatRelated } from './related.js';
import { plural } from '../util/text.js';

type Format = Parameters<typeof styleText>[0];
type Paint = (format: Format, text: string) => string;

function painter(color: boolean): Paint {
  // styleText checks process.stdout by default and drops colors when it is not a TTY; the caller already decided.
  return (format, text) => (color && text !== '' ? styleText(format, text, { validateStream: false }) : text);
}

function severityLabel(finding: Finding): string {
  return finding.severity === 'error' ? 'error' : 'warning';
}

function formatFile(file: string, findings: Finding[], paint: Paint, at: (file: string) => string): string {
  const lineWidth = Math.max(...findings.map((f) => String(f.line).length));
  const columnWidth = Math.max(...findings.map((f) => String(f.column).length));
  const severityWidth = Math.max(...findings.map((f) => severityLabel(f).length));
  const firstLines = findings.map((f) => f.message.split(/\r?\n/));
  const messageWidth = Math.max(...firstLines.map((lines) => (lines[0] ?? '').length));
  const positionWidth = lineWidth + 1 + columnWidth;
  const messageIndent = ' '.repeat(2 + positionWidth + 2 + severityWidth + 2);

  const out = [paint('underline', at(file))];
  findings.forEach((finding, index) => {
    const [first = '', ...rest] = firstLines[index] ?? [];
    const position = `${String(finding.line).padStart(lineWidth)}:${String(finding.column).padEnd(columnWidth)}`;
    const label = severityLabel(finding);
    const severity = paint(finding.severity === 'error' ? 'red' : 'yellow', label) + ' '.repeat(severityWidth - label.length);
    const rule = finding.ruleId ? `  ${' '.repeat(messageWidth - first.length)}${paint('dim', finding.ruleId)}` : '';
    out.push(`  ${paint('dim', position)}  ${severity}  ${first}${rule}`);
    for (const line of rest) out.push(`${messageIndent}${line}`);
    for (const related of finding.related ?? []) out.push(paint('dim', `    ↳ ${formatRelated({ ...related, file: at(related.file) })}`));
  });
  return out.join('\n');
}

function formatSummary(summary: Summary, paint: Paint): string {
  const line = summaryLine(summary, paint);
  const notes: string[] = [];
  if (summary.baselined) notes.push(`${plural(summary.baselined, 'known finding')} in the baseline not reported`);
  if (summary.baselineFixed) notes.push(`${plural(summary.baselineFixed, 'baseline entry', 'baseline entries')} no longer match: the baseline can shrink (tripwire check --update-baseline)`);
  if (summary.baselineWritten !== undefined) notes.push(`baseline written: ${plural(summary.baselineWritten, 'entry', 'entries')}`);
  return [line, ...notes.map((note) => paint('dim', note))].join('\n');
}

function summaryLine(summary: Summary, paint: Paint): string {
  const problems = summary.errors + summary.warnings;
  const suppressed = summary.suppressed !== undefined && summary.suppressed > 0 ? `, ${summary.suppressed} suppressed` : '';
  if (problems === 0) {
    const counts = `${plural(summary.files, 'file')}, ${plural(summary.rules, 'rule')}, ${Math.round(summary.ms)}ms`;
    return paint('green', `✔ no problems (${counts})${suppressed}`);
  }
  const counts = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}`;
  const text = `✖ ${plural(problems, 'problem')} (${counts})${suppressed}`;
  return paint(summary.errors > 0 ? 'red' : 'yellow', paint('bold', text));
}

export function stylish(result: CheckResult, options: ReportOptions): string {
  const paint = painter(options.color);
  const blocks = [...groupByFile(result.findings)].map(([file, findings]) => formatFile(file, findings, paint, (path) => displayPath(path, options)));
  blocks.push(formatSummary(result.summary, paint));
  return `${blocks.join('\n\n')}\n`;
}
