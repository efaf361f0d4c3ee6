/**
 * Byte offsets of a WebAssembly binary to the generator lines binaryen
 * recorded for them (Source Map Revision 3: one "line" of generated code,
 * whose columns are the binary's offsets; segments in base64 VLQ).
 */

export interface GeneratorLine {
  offset: number;
  source: string;
  line: number;
  column: number;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One segment's fields: base64 digits of 5 bits each, continued while bit 5 is set; the lowest bit of a value is its sign. */
function decodeSegment(text: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of text) {
    const digit = BASE64.indexOf(ch);
    if (digit < 0) throw new Error(`source map: "${ch}" is not base64`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    fields.push(value & 1 ? -Math.floor(value / 2) : Math.floor(value / 2));
    value = 0;
    shift = 0;
  }
  return fields;
}

/** The mapped offsets in increasing order, each with its generator line (1-based, as editors count). */
export function readSourceMap(json: string): GeneratorLine[] {
  const map = JSON.parse(json) as { sources: string[]; mappings: string };
  const lines: GeneratorLine[] = [];
  let offset = 0;
  let source = 0;
  let line = 0;
  let column = 0;
  for (const segment of map.mappings.split(',')) {
    if (segment === '') continue;
    const fields = decodeSegment(segment);
    offset += fields[0];
    if (fields.length < 4) continue;
    source += fields[1];
    line += fields[2];
    column += fields[3];
    lines.push({ offset, source: map.sources[source], line: line + 1, column: column + 1 });
  }
  return lines.sort((a, b) => a.offset - b.offset);
}

/** The generator line of the instruction at `offset`: the last mapped offset at or before it, within [from, offset]. */
export function lineAt(lines: GeneratorLine[], offset: number, from = 0): GeneratorLine | undefined {
  let lo = 0;
  let hi = lines.length - 1;
  let found: GeneratorLine | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid].offset <= offset) {
      found = lines[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found && found.offset >= from ? found : undefined;
}
