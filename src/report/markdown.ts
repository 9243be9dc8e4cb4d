import type { CheckResult, Finding, MapCoverage, Summary } from '../types.js';
import { repositoryPath, type ReportOptions } from './index.js';
import { escapeMarkdown, plural, table, truncate } from './markdown-text.js';
import { chainFlowchart } from './mermaid.js';
import { sortFindings } from './order.js';

// GitHub caps a step summary at 1 MiB and a comment at 65,536 characters: the report
// lists a bounded number of findings, charts and rows, each of bounded length, and
// says how many it left out; `--format json` has them all.
export const LIMITS = { findings: 100, charts: 10, coverageRows: 200, message: 600, path: 200 } as const;

type Options = Pick<ReportOptions, 'cwd' | 'repoRoot' | 'rules'>;

export function markdown(result: CheckResult, options: Options = { cwd: '', rules: [] }): string {
  const sections = [heading(result.summary), ...findingSections(result.findings, options)];
  if (result.coverage) sections.push(coverageSection(result.coverage, options));
  return `${sections.join('\n\n')}\n`;
}

function heading(summary: Summary): string {
  const { errors, warnings } = summary;
  const verdict = errors > 0 ? '❌ tripwire found errors' : warnings > 0 ? '⚠️ tripwire found warnings' : '✅ tripwire found nothing to fix';
  const counts = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
  const facts = [plural(summary.files, 'file'), plural(summary.rules, 'rule'), `${summary.ms} ms`];
  if (summary.suppressed) facts.push(`${summary.suppressed} suppressed`);
  if (summary.baselined) facts.push(`${summary.baselined} known in the baseline`);
  if (summary.cached) facts.push('verdict from the result cache');
  return `## ${verdict}: ${counts}\n\n${facts.join(' · ')}`;
}

function location(file: string, line: number, options: Options): string {
  const path = escapeMarkdown(truncate(repositoryPath(file, options), LIMITS.path));
  return line >= 1 ? `${path}:${line}` : path;
}

/** One section per rule, in rule id order; the listed findings stop at LIMITS.findings in all. */
function findingSections(findings: readonly Finding[], options: Options): string[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of sortFindings(findings)) groups.set(finding.ruleId, [...(groups.get(finding.ruleId) ?? []), finding]);
  const sections: string[] = [];
  let listed = 0;
  let charts = 0;
  for (const ruleId of [...groups.keys()].sort()) {
    const group = groups.get(ruleId) ?? [];
    const shown = group.slice(0, Math.max(0, LIMITS.findings - listed));
    listed += shown.length;
    const errors = group.filter((finding) => finding.severity === 'error').length;
    const counts = [errors > 0 && plural(errors, 'error'), group.length > errors && plural(group.length - errors, 'warning')].filter(Boolean).join(', ');
    const url = options.rules.find((rule) => rule.id === ruleId)?.url;
    const title = url === undefined ? escapeMarkdown(ruleId) : `[${escapeMarkdown(ruleId)}](${url})`;
    const parts = [`### ${title} · ${counts}`];
    if (shown.length > 0) {
      const rows = shown.map((finding) => [finding.severity === 'error' ? 'error' : 'warning', location(finding.file, finding.line, options), escapeMarkdown(finding.messageId), escapeMarkdown(truncate(finding.message, LIMITS.message))]);
      parts.push(table(['severity', 'location', 'message id', 'message'], rows));
    }
    if (group.length > shown.length) parts.push(`… and ${group.length - shown.length} more ${escapeMarkdown(ruleId)} ${group.length - shown.length === 1 ? 'finding' : 'findings'}: run \`tripwire check\` for all of them.`);
    for (const finding of shown) {
      if (!finding.chain || finding.chain.length < 2) continue;
      if (charts === LIMITS.charts) break;
      charts++;
      parts.push(`How ${location(finding.file, finding.line, options)} reaches a paid call:\n\n${chainFlowchart(finding.chain, (file) => repositoryPath(file, options))}`);
    }
    sections.push(parts.join('\n\n'));
  }
  return sections;
}

function coverageSection(coverage: MapCoverage, options: Options): string {
  const title = '### Paid tests in the selection maps';
  if (coverage.touchfileMaps.length === 0 && coverage.tierMap === null) {
    return `${title}\n\nNo touchfile or tier map is configured (\`maps\`): no diff selects a paid test, and each runs on every change or never.`;
  }
  if (coverage.ids.length === 0) return `${title}\n\nNo paid test id was found in the paid test files.`;
  const header = ['paid test id', 'declared at'];
  if (coverage.touchfileMaps.length > 0) header.push(`touchfile entry (${coverage.touchfileMaps.map(escapeMarkdown).join(', ')})`);
  if (coverage.tierMap !== null) header.push(`tier (${escapeMarkdown(coverage.tierMap)})`);
  const shown = coverage.ids.slice(0, LIMITS.coverageRows);
  const rows = shown.map((row) => {
    const cells = [escapeMarkdown(truncate(row.id, LIMITS.path)), location(row.file, row.line, options)];
    if (coverage.touchfileMaps.length > 0) cells.push(row.touchfile ? '✅ covered' : '❌ uncovered');
    if (coverage.tierMap !== null) cells.push(row.hasTier ? `✅ ${row.tier === null ? 'not evaluable' : escapeMarkdown(truncate(row.tier, LIMITS.path))}` : '❌ uncovered');
    return cells;
  });
  const totals: string[] = [];
  const total = coverage.ids.length;
  if (coverage.touchfileMaps.length > 0) totals.push(`${coverage.ids.filter((row) => row.touchfile).length} of ${total} paid test ids have a touchfile entry`);
  if (coverage.tierMap !== null) totals.push(`${coverage.ids.filter((row) => row.hasTier).length} of ${total} have a tier`);
  const parts = [title, `${totals.join('; ')}.`, table(header, rows)];
  if (total > shown.length) parts.push(`… and ${total - shown.length} more paid test ids.`);
  return parts.join('\n\n');
}
