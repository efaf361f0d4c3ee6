/**
 * Where a stream's writes are cut for the stream tests: writes of one
 * byte near the places a reader's state changes, larger ones between, and
 * those places in an age file, binary or armored. test/helpers.ts
 * re-exports them.
 */
/**
 * The sizes of the writes that cut `length` bytes for a stream: one byte
 * at a time within `window` bytes of the start, the end and each of
 * `offsets` (where the stream's state changes: a header's end, a chunk's
 * end), up to `piece` bytes at a time between them. One-byte writes away
 * from those places would each meet the state of the one before.
 */
export function writesNear(length: number, offsets: readonly number[], window = 1024, piece = 4096): number[] {
  const clamp = (n: number) => Math.min(length, Math.max(0, n));
  const spans = [0, length, ...offsets].map((o) => [clamp(o - window), clamp(o + window)] as const).sort((a, b) => a[0] - b[0]);
  const sizes: number[] = [];
  let at = 0;
  for (const [from, to] of spans) {
    for (; at < from; at += sizes[sizes.length - 1]!) sizes.push(Math.min(piece, from - at));
    for (; at < to; at++) sizes.push(1);
  }
  for (; at < length; at += sizes[sizes.length - 1]!) sizes.push(Math.min(piece, length - at));
  return sizes;
}

/**
 * Where an age file's reader changes state (age-encryption.org/v1): the
 * header's end, the payload nonce's end, and the ends of the first two
 * sealed chunks (64 KiB and a 16-byte tag) and of the last two (each
 * chunk's end between meets the state of the one before). In an armored
 * file, where those bytes are in its text (64 base64 columns a line
 * after the BEGIN line); none where it does not decode (then the start
 * and the end are all).
 */
export function ageOffsets(file: Uint8Array): number[] {
  const text = new TextDecoder('latin1').decode(file);
  const armored = text.startsWith('-----BEGIN AGE ENCRYPTED FILE-----');
  const binary = armored ? unarmored(text) : text;
  const mac = binary.indexOf('\n--- ');
  if (mac < 0) return [];
  const payload = binary.indexOf('\n', mac + 1) + 1;
  const ends: number[] = [];
  for (let end = payload + 16 + 65552; end < binary.length; end += 65552) ends.push(end);
  const offsets = [payload, payload + 16, ...ends.slice(0, 2), ...ends.slice(2).slice(-2)];
  // Byte b of the file is base64 character 4b/3 of the armor, on line 4b/3/64 after the 35-byte BEGIN line.
  return armored ? offsets.map((b) => 35 + Math.floor((b * 4) / 3 / 64) * 65 + (Math.floor((b * 4) / 3) % 64)) : offsets;
}

/** The bytes (as latin1 text) inside an armored age file's base64 lines; '' where they are not base64. */
function unarmored(text: string): string {
  const lines = text.split(/\r?\n/).slice(1);
  const end = lines.findIndex((l) => l.startsWith('-----END'));
  try {
    return atob(lines.slice(0, end < 0 ? lines.length : end).join(''));
  } catch {
    return '';
  }
}
