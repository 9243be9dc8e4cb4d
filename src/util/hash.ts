import { hash } from 'node:crypto';

/** The SHA-1 of a string's UTF-8 bytes, in hex: one call, no hash object (what a run does for every unit and every read file). */
export function sha1(text: string): string {
  return hash('sha1', text);
}
