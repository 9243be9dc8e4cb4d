import { pathToFileURL } from 'node:url';
import type { Location, Log, Region, ReportingConfiguration, ReportingDescriptor, Result } from 'sarif';
import type { CheckResult, Finding, Related, SeveritySetting } from '../types.js';
import { repositoryPath } from './paths.js';
import type { ReportOptions, RuleMetaForReport } from './types.js';
import { sortFindings } from './order.js';

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const INFORMATION_URI = 'https://www.npmjs.com/package/eslint-plugin-tripwire';
const SRCROOT = '%SRCROOT%';

function isPositive(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value >= 1;
}

// The schema requires startLine >= 1, so a finding without a known line is reported against the whole file.
function toRegion(line: number, column?: number, endLine?: number, endColumn?: number): Region | undefined {
  if (!isPositive(line)) return undefined;
  const region: Region = { startLine: line };
  const lastLine = isPositive(endLine) && endLine >= line ? endLine : undefined;
  if (isPositive(column)) {
    region.startColumn = column;
    if (lastLine !== undefined) region.endLine = lastLine;
    if (isPositive(endColumn) && ((lastLine ?? line) > line || endColumn >= column)) region.endColumn = endColumn;
  } else if (lastLine !== undefined) {
    region.endLine = lastLine;
  }
  return region;
}

function toUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

function toLocation(file: string, region: Region | undefined): Location {
  return {
    physicalLocation: {
      artifactLocation: { uri: toUri(file), uriBaseId: SRCROOT },
      ...(region ? { region } : {}),
    },
  };
}

function toRelatedLocation(related: Related, id: number, at: (file: string) => string): Location {
  return {
    id,
    ...toLocation(at(related.file), toRegion(related.line, related.column)),
    ...(related.message ? { message: { text: related.message } } : {}),
  };
}

function toConfiguration(severity: SeveritySetting | undefined): ReportingConfiguration {
  switch (severity) {
    case 'error':
      return { enabled: true, level: 'error' };
    case 'warn':
      return { enabled: true, level: 'warning' };
    case 'off':
      return { enabled: false };
    case undefined:
      return { enabled: true };
  }
}

function toDescriptor(rule: RuleMetaForReport): ReportingDescriptor {
  return {
    id: rule.id,
    shortDescription: { text: rule.description },
    ...(URL.canParse(rule.url) ? { helpUri: rule.url } : {}),
    defaultConfiguration: toConfiguration(rule.severity),
    ...(rule.messages && { messageStrings: Object.fromEntries(Object.entries(rule.messages).map(([id, kind]) => [id, { text: kind.description }])) }),
  };
}

function toResult(finding: Finding, ruleIndex: number | undefined, at: (file: string) => string): Result {
  const related = finding.related ?? [];
  return {
    ruleId: finding.ruleId,
    ...(ruleIndex === undefined ? {} : { ruleIndex }),
    level: finding.severity === 'error' ? 'error' : 'warning',
    message: { text: finding.message },
    locations: [toLocation(at(finding.file), toRegion(finding.line, finding.column, finding.endLine, finding.endColumn))],
    ...(related.length > 0 ? { relatedLocations: related.map((r, id) => toRelatedLocation(r, id, at)) } : {}),
    properties: { messageId: finding.messageId },
  };
}

function toSrcRoot(cwd: string): string {
  const href = pathToFileURL(cwd).href;
  return href.endsWith('/') ? href : `${href}/`;
}

export function sarif(result: CheckResult, options: ReportOptions): string {
  const at = (file: string): string => repositoryPath(file, options);
  const rules: RuleMetaForReport[] = [];
  const ruleIndex = new Map<string, number>();
  // driver.rules is uniqueItems in the schema.
  for (const rule of options.rules) {
    if (ruleIndex.has(rule.id)) continue;
    ruleIndex.set(rule.id, rules.length);
    rules.push(rule);
  }

  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'tripwire',
            version: options.toolVersion,
            informationUri: INFORMATION_URI,
            rules: rules.map(toDescriptor),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: toSrcRoot(options.repoRoot ?? options.cwd) } },
        columnKind: 'utf16CodeUnits',
        results: sortFindings(result.findings).map((finding) => toResult(finding, ruleIndex.get(finding.ruleId), at)),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
