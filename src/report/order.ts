import type { Finding } from '../types.js';
import { sortFindings } from '../util/order.js';

export { compareFindings, sortFindings } from '../util/order.js';

export function groupByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const groups = new Map<string, Finding[]>();
  for (const finding of sortFindings(findings)) {
    const group = groups.get(finding.file);
    if (group) group.push(finding);
    else groups.set(finding.file, [finding]);
  }
  return groups;
}
