import { posix } from 'node:path';

/** Extensions of text formats: such a file is read as text whatever bytes it holds (a stray NUL included). */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  'md', 'markdown', 'mdx', 'mdc', 'txt', 'tmpl', 'tpl', 'prompt', 'j2', 'jinja', 'hbs', 'mustache', 'ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs',
  'cjs', 'json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'env', 'sh', 'bash', 'zsh', 'fish', 'bats', 'py', 'rb', 'go', 'rs',
  'java', 'kt', 'swift', 'c', 'h', 'cc', 'cpp', 'hpp', 'cs', 'php', 'sql', 'html', 'htm', 'css', 'scss', 'xml', 'properties', 'gradle', 'lua',
  'pl', 'r', 'ex', 'exs', 'csv', 'tsv', 'diff', 'patch', 'svelte', 'vue', 'astro',
]);

/** Extensions of binary formats (images, fonts, archives, media, compiled code): never a text artifact. */
const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'ico', 'icns', 'bmp', 'tif', 'tiff', 'psd', 'pdf', 'woff', 'woff2', 'ttf', 'otf', 'eot', 'zip', 'gz',
  'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'tar', 'jar', 'war', 'class', 'wasm', 'so', 'dylib', 'dll', 'exe', 'o', 'a', 'node', 'pyc', 'mp3', 'mp4',
  'm4a', 'wav', 'ogg', 'oga', 'flac', 'webm', 'mov', 'avi', 'mkv', 'sqlite', 'sqlite3', 'db', 'lockb', 'onnx', 'npy', 'pt', 'safetensors',
]);

/** Above this share of characters that no text holds, a file of no known kind is binary. */
const NOT_TEXT_SHARE = 0.3;

/**
 * What a file is to a lexical scan. `text`: scanned, a file of a text format
 * whatever its bytes, and a file of no known format that is mostly text (one
 * stray NUL does not make a SKILL.md or a script binary). `binary`: a binary
 * format by its extension, not a text artifact. `not-text`: a file of no known
 * format whose content is mostly NULs, control characters and invalid UTF-8:
 * it is skipped, and where a contract needs it as text that is a finding.
 */
export function textKind(file: string, text: string): 'text' | 'binary' | 'not-text' {
  const extension = extensionOf(file);
  if (extension !== null && TEXT_EXTENSIONS.has(extension)) return 'text';
  if (extension !== null && BINARY_EXTENSIONS.has(extension)) return 'binary';
  if (!text.includes('\u0000')) return 'text';
  let odd = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // C0 controls other than tab, newlines, form feed and escape; U+FFFD stands for bytes that are not UTF-8.
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c && code !== 0x1b) || code === 0xfffd) odd++;
  }
  return odd > text.length * NOT_TEXT_SHARE ? 'not-text' : 'text';
}

/** The lower-case extension of a file name, or null for none (a dotfile's name is not an extension). */
export function extensionOf(file: string): string | null {
  const base = posix.basename(file);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? null : base.slice(dot + 1).toLowerCase();
}
