import { measureCodeSize } from './bench/node/code-size.ts';
const r = await measureCodeSize({ only: (p) => p.name === "encrypt from 'fourfold/age'" });
for (const p of r.pages) { console.log(p.name, p.gzipBytes); for (const f of p.files) console.log('  load', f.file, f.bytes, f.gzipBytes); for (const f of p.onDemand) console.log('  lazy', f.file, f.bytes, f.gzipBytes); }
