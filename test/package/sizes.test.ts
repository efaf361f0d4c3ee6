/**
 * No file of src/ is over MAX_LINES lines, so that each can be read whole:
 * a file past it holds more than one thing, and is split by what it
 * holds. Exempt are two kinds of file whose length is one thing written
 * out, which a split would only scatter:
 *
 * - the kernel generators, src/<family>/kernel.ts: each writes its
 *   family's WebAssembly module, instruction by instruction;
 * - the unrolled js cores of UNROLLED, each named with what it unrolls.
 *
 * Node only (it reads the tree).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NOT_NODE, ROOT, sourceFiles } from './files.js';

const MAX_LINES = 400;

/** A kernel generator: the kernel.ts of a family's folder. */
const KERNEL_GENERATOR = /^src\/[^/]+\/kernel\.ts$/;

/** The pure-JavaScript cores whose length is their rounds written out step by step, and what each unrolls. */
const UNROLLED: Readonly<Record<string, string>> = {
  'src/blake3/js.ts': "BLAKE3's compression: its seven rounds on 32 locals, the message permutation applied to the names, one step a line",
};

/** Lines of a file as an editor numbers them (a last line without a newline counts). */
function linesOf(file: string): number {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

it(`no file of src/ is over ${MAX_LINES} lines, but the kernel generators and the unrolled js cores`, { skip: NOT_NODE }, () => {
  const over = sourceFiles()
    .filter((f) => !KERNEL_GENERATOR.test(f) && UNROLLED[f] === undefined)
    .map((f) => ({ file: f, lines: linesOf(f) }))
    .filter((f) => f.lines > MAX_LINES)
    .map((f) => `${f.file}: ${f.lines} lines`);
  assert.deepEqual(over, []);
});

it('every unrolled js core named is a file of src/ and no kernel generator', { skip: NOT_NODE }, () => {
  const sources = new Set(sourceFiles());
  assert.deepEqual(
    Object.keys(UNROLLED).filter((f) => !sources.has(f) || KERNEL_GENERATOR.test(f)),
    [],
  );
});
