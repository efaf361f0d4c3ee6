/**
 * What `fourfold age -o` needs beyond a run to standard output: where the
 * -o file's bytes go and how it is replaced (age-io.ts), and the file
 * calls that take a regular file to a file (age.ts). Both import this
 * module only with -o, so that its code is one chunk
 * (scripts/build-cli.ts) that a run to standard output never loads.
 */
export { isBait, outputTarget } from '../age/output-path.js';
export { beginReplacement } from '../age/output-file.js';
export { openFile, sealFile } from '../age/files.js';
