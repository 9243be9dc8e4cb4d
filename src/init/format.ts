const WIDTH = 100;

/**
 * The configuration as a person would write it: two-space JSON, with a list
 * or a small object on one line when it fits, so that the file reads like the
 * README's examples rather than one string per line.
 */
export function formatConfig(config: unknown): string {
  return `${format(config, 0, 0)}\n`;
}

function format(value: unknown, indent: number, keyWidth: number): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const pad = '  '.repeat(indent + 1);
  const oneLine = inline(value);
  // The top level and the sections (`tests`, `maps`) always open up; lists and refs inside them stay on one line when they fit.
  const fits = pad.length + keyWidth + oneLine.length <= WIDTH;
  if (Array.isArray(value)) {
    if (value.length === 0 || (indent > 0 && fits)) return oneLine;
    return `[\n${value.map((item) => `${pad}${format(item, indent + 1, 0)}`).join(',\n')}\n${'  '.repeat(indent)}]`;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  if (indent > 1 && fits) return oneLine;
  return `{\n${entries.map(([key, item]) => `${pad}${JSON.stringify(key)}: ${format(item, indent + 1, JSON.stringify(key).length + 2)}`).join(',\n')}\n${'  '.repeat(indent)}}`;
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  return entries.length === 0 ? '{}' : `{ ${entries.map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`).join(', ')} }`;
}
