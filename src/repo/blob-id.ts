import { createHash } from 'node:crypto';
import { streamFile } from './read.js';

/**
 * The id git gives a blob with these bytes (`git hash-object`): the same key
 * whether a file's id came from the index or from reading it. Text is hashed
 * as UTF-8, the encoding it was read with.
 */
export function blobId(content: string | Buffer): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * The blob id of a file's current bytes, read in chunks whatever the size;
 * null when it does not exist, cannot be read or is not a regular file.
 */
export function fileBlobId(file: string): string | null {
  const hash = createHash('sha1');
  const failure = streamFile(file, (size) => hash.update(`blob ${size}\0`), (chunk) => hash.update(chunk));
  return failure === null ? hash.digest('hex') : null;
}
