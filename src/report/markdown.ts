import type { CheckResult, Finding, MapCoverage, Summary } from '../types.js';
import { repositoryPath } from './paths.js';
import { escapeMarkdown, table, truncate } from './markdown-text.js';
import { plural } from '../util/text.js';
import { chainFlowchart } from './mermaid.js';
import { sortFindings } from './order.js';

// GitHub caps a step summary at 1 MiB: the report lists a bounded number of findings,
// charts and rows, each of bounded length, within a byte budget (escaping can make a
// hostile name five times longer), and says how many it left out; `--format json` has them all.
export const LIMITS = { findings: 100, findingBytes: 500_000, charts: 10, coverageRows: 200, coverageBytes: 200_000, message: 600, path: 200, related: 5 } as const;

function byteSize(cells: readonly string[]): number {
  return cells.reduce((sum, cell) => sum + Buffer.byteLength(cell) + 3, 0);
}

/** What it needs of ReportOptions (not imported: index.ts imports the reporters). */
interface Options {
  cwd: string;
  repoRoot?: string;
  rules: readonly { id: string; url: string }[];
}

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

/** One section per rule, in rule id order; the listed findings stop at LIMITS.findings (or findingBytes) in all. */
function findingSections(findings: readonly Finding[], options: Options): string[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of sortFindings(findings)) {
    const group = groups.get(finding.ruleId);
    if (group) group.push(finding);
    else groups.set(finding.ruleId, [finding]);
  }
  const sections: string[] = [];
  let listed = 0;
  let bytes = 0;
  let charts = 0;
  for (const ruleId of [...groups.keys()].sort()) {
    const group = groups.get(ruleId) ?? [];
    const rows: string[][] = [];
    for (const finding of group) {
      const row = [finding.severity === 'error' ? 'error' : 'warning', location(finding.file, finding.line, options), escapeMarkdown(finding.messageId), messageCell(finding, options)];
      if (listed === LIMITS.findings || bytes + byteSize(row) > LIMITS.findingBytes) {
        listed = LIMITS.findings;
        break;
      }
      listed++;
      bytes += byteSize(row);
      rows.push(row);
    }
    const shown = group.slice(0, rows.length);
    const errors = group.filter((finding) => finding.severity === 'error').length;
    const counts = [errors > 0 && plural(errors, 'error'), group.length > errors && plural(group.length - errors, 'warning')].filter(Boolean).join(', ');
    const url = options.rules.find((rule) => rule.id === ruleId)?.url;
    const title = url === undefined ? escapeMarkdown(ruleId) : `[${escapeMarkdown(ruleId)}](${url})`;
    const parts = [`### ${title} · ${counts}`];
    if (rows.length > 0) parts.push(table(['severity', 'location', 'message id', 'message'], rows));
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

/** The message, then each related place on a line of its own, as the github annotations list them. */
function messageCell(finding: Finding, options: Options): string {
  const related = finding.related ?? [];
  const lines = related.slice(0, LIMITS.related).map((place) => `↳ ${location(place.file, place.line, options)}${place.message ? ` ${escapeMarkdown(truncate(place.message, LIMITS.path))}` : ''}`);
  if (related.length > LIMITS.related) lines.push(`↳ … and ${related.length - LIMITS.related} more`);
  return [escapeMarkdown(truncate(finding.message, LIMITS.message)), ...lines].join('<br>');
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
  const rows: string[][] = [];
  let bytes = 0;
  for (const row of coverage.ids) {
    const cells = [escapeMarkdown(truncate(row.id, LIMITS.path)), location(row.file, row.line, options)];
    if (coverage.touchfileMaps.length > 0) cells.push(row.touchfile ? '✅ covered' : '❌ uncovered');
    if (coverage.tierMap !== null) cells.push(row.hasTier ? `✅ ${row.tier === null ? 'not evaluable' : escapeMarkdown(truncate(row.tier, LIMITS.path))}` : '❌ uncovered');
    if (rows.length === LIMITS.coverageRows || bytes + byteSize(cells) > LIMITS.coverageBytes) break;
    bytes += byteSize(cells);
    rows.push(cells);
  }
  const totals: string[] = [];
  const total = coverage.ids.length;
  if (coverage.touchfileMaps.length > 0) totals.push(`${coverage.ids.filter((row) => row.touchfile).length} of ${total} paid test ids have a touchfile entry`);
  if (coverage.tierMap !== null) totals.push(`${coverage.ids.filter((row) => row.hasTier).length} of ${total} have a tier`);
  const parts = [title, `${totals.join('; ')}.`, table(header, rows)];
  if (total > rows.length) parts.push(`… and ${total - rows.length} more paid test ids.`);
  return parts.join('\n\n');
}
