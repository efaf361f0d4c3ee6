/**
 * package.json's "browser" field swaps the native tier's modules for
 * stand-ins in browser bundles. A stand-in that lacks a name its module
 * exports breaks every browser bundle that imports the name (esbuild: "No
 * matching export"), which Node, where the stand-in never loads, would not
 * show: each stand-in must export exactly its module's names.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NOT_NODE, ROOT } from './files.js';

const names = async (file: string): Promise<string[]> => Object.keys(await import(pathToFileURL(join(ROOT, file)).href)).sort();

it('each stand-in of the "browser" field exports the names of the module it replaces', { skip: NOT_NODE }, async () => {
  const swaps = Object.entries(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).browser as Record<string, string>);
  assert.ok(swaps.length > 0, 'package.json has a "browser" field');
  for (const [module, standIn] of swaps) assert.deepEqual(await names(standIn), await names(module), `${standIn} against ${module}`);
});
