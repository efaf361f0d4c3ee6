/**
 * What the video check needs on disk, made in a folder of its own: the
 * example built (esbuild: the Service Worker as a classic script, the
 * page's scripts as modules, index.html and check.html), a WebM made by
 * ffmpeg (VP9 and Opus: testsrc2 with noise, so that it cannot compress,
 * and a sine; a segment encoded once and repeated with stream copy, which
 * is what makes hundreds of MiB in seconds on two cores), and that WebM
 * encrypted by Go's age (`age` on the PATH, $AGE or ~/go/bin/age) to a
 * new X25519 identity.
 */
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateIdentity, identityToRecipient } from '../../dist/age/index.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '../..');

/** The example built into `out`: sw.js, main.js, check.js, index.html and check.html (the same page running check.js). */
export async function buildExample(out: string): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/age/index.js'))) throw new Error("fourfold is not built (no dist/): run 'npm run build' first");
  mkdirSync(out, { recursive: true });
  const common: esbuild.BuildOptions = { absWorkingDir: ROOT, bundle: true, platform: 'browser', target: 'es2022', logLevel: 'warning', legalComments: 'none' };
  await esbuild.build({ ...common, format: 'iife', entryPoints: [join(HERE, 'sw.ts')], outfile: join(out, 'sw.js') });
  await esbuild.build({ ...common, format: 'esm', entryPoints: [join(HERE, 'main.ts'), join(HERE, 'check.ts')], outdir: out });
  const page = readFileSync(join(HERE, 'index.html'), 'utf8');
  writeFileSync(join(out, 'index.html'), page);
  writeFileSync(join(out, 'check.html'), page.replace('./main.js', './check.js'));
}

/** A program: on the PATH, or at one of `paths`; an Error saying how to install it where it is nowhere. */
export function program(name: string, paths: string[], install: string): string {
  for (const p of paths) if (p !== '' && existsSync(p)) return p;
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`${name} is not installed: ${install}`);
  }
}

/** The WebM, its encrypted copy, the identity, and what making them took. */
export interface MadeVideo {
  readonly plain: string;
  readonly encrypted: string;
  readonly identity: string;
  readonly bytes: number;
  readonly seconds: number;
  readonly encodeMs: number;
  readonly encryptMs: number;
}

/**
 * A WebM of at least `mib` MiB, in `dir`: a segment of `segment` seconds
 * (640x360 at 30 fps, a keyframe every 10 frames, about 12 Mbit/s, so
 * that a seek decodes at most a third of a second) repeated as often as
 * that takes; and the age file Go's age makes of it.
 */
export function makeVideo(dir: string, segment: number, mib: number): MadeVideo {
  const ffmpeg = program('ffmpeg', [process.env.FFMPEG ?? ''], "apt-get install ffmpeg (Debian's, with libvpx and libopus)");
  const age = program('age', [process.env.AGE ?? '', join(homedir(), 'go/bin/age')], 'go install filippo.io/age/cmd/...@v1.3.2');
  const t0 = performance.now();
  const part = join(dir, 'part.webm');
  // testsrc2 alone compresses to a few Mbit/s; the noise makes every frame cost its bitrate.
  const lavfi = [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=640x360:rate=30:duration=${segment}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=48000:duration=${segment}`,
  ];
  const vp9 = ['-vf', 'noise=alls=12:allf=t', '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'];
  const rate = ['-b:v', '12M', '-minrate', '12M', '-maxrate', '12M', '-g', '10', '-c:a', 'libopus', '-b:a', '64k'];
  execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...lavfi, ...vp9, ...rate, part], { stdio: 'inherit' });
  const copies = Math.max(1, Math.ceil((mib * 2 ** 20) / statSync(part).size));
  const list = join(dir, 'parts.txt');
  writeFileSync(list, `${"file 'part.webm'\n".repeat(copies)}`);
  const plain = join(dir, 'film.webm');
  execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', plain], { stdio: 'inherit' });
  const encodeMs = performance.now() - t0;
  const identity = generateIdentity();
  const encrypted = join(dir, 'film.webm.age');
  const t1 = performance.now();
  execFileSync(age, ['-r', identityToRecipient(identity), '-o', encrypted, plain], { stdio: 'inherit' });
  const encryptMs = performance.now() - t1;
  return { plain, encrypted, identity, bytes: statSync(plain).size, seconds: segment * copies, encodeMs, encryptMs };
}
