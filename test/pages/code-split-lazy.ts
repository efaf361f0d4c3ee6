/** The lazily loaded chunk of code-split.page.ts: two families its entry does not import. */
export { blake3 } from 'fourfold/blake3';
export { ctr } from 'fourfold/serpent';
