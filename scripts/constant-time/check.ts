/**
 * `npm run check:constant-time [-- names...]`: the constant-time check
 * over the shipped kernels, printed: each finding with its function, the
 * instruction's offset in the module, and the generator line that emitted
 * it. Exits 1 on any finding no declared exception allows, or on an
 * exception whose count is not what was found.
 */
import { checkKernels } from './kernels.js';
import { RULES } from './wasm-taint.js';

let failed = false;
for (const report of checkKernels(process.argv.slice(2).length > 0 ? process.argv.slice(2) : undefined)) {
  const open = report.findings.filter((f) => !f.allowedBy);
  const allowed = report.findings.length - open.length;
  console.log(
    `kernel ${report.name}: ${report.functions} functions, ${report.instructions} instructions, ${open.length} findings, ${allowed} allowed by an exception`,
  );
  for (const f of report.findings) {
    console.log(
      `  ${f.allowedBy ? 'allowed' : 'FINDING'} ${f.function} +${f.offset} ${f.instruction}: ${RULES[f.rule]} (${f.source})${f.allowedBy ? `: ${f.allowedBy}` : ''}`,
    );
  }
  for (const e of report.wrongExceptions) console.log(`  STALE exception ${e}`);
  if (open.length > 0 || report.wrongExceptions.length > 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
