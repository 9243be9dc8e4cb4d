/** A plain object (not null, not an array): what a JSON or YAML document's map is. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
