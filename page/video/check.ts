/**
 * The in-page half of the video check (page/test/video.ts runs it in
 * each browser): with the example's worker (sw.ts) and helpers
 * (player.ts), plays the encrypted WebM from the start, seeks to each
 * position the server's config.json names, timing each seek's first
 * frame (requestVideoFrameCallback's, or 'seeked' where the browser has
 * none), and marks each seek at the server, which counts the bytes each
 * one fetched; then fetches every range the worker answered again,
 * through the worker and from the plaintext file, and compares them; then
 * plays a copy of the file with one chunk changed, which must stop with
 * an error. POSTs what it found to /__result.
 */
import type { Served } from './sw.js';
import { addVideo, ask, serviceWorker } from './player.js';

/** What the server tells the page (serve.ts). */
interface Config {
  identity: string;
  encrypted: string;
  tampered: string;
  plain: string;
  seeks: number[];
  /** Where the tampered file's changed chunk starts in the plaintext, in seconds of video. */
  tamperedAt: number;
  readAhead: number;
}

const now = () => performance.timeOrigin + performance.now();
const post = (path: string, body: unknown) => fetch(path, { method: 'POST', body: JSON.stringify(body) });

/** Resolves when `condition` holds at an event of `target` (checked first), rejects after `ms`. */
function when(target: EventTarget, events: string[], condition: () => boolean, what: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!condition()) return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${what}: not within ${ms} ms`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      for (const e of events) target.removeEventListener(e, check);
    };
    for (const e of events) target.addEventListener(e, check);
    check();
  });
}

/** The time of the first frame presented after now (requestVideoFrameCallback's), with its media time; 'seeked' where there is none. */
function nextFrame(video: HTMLVideoElement): Promise<{ at: number; mediaTime: number; by: string }> {
  const v = video as HTMLVideoElement & { requestVideoFrameCallback?(cb: (now: number, meta: { mediaTime: number }) => void): number };
  if (typeof v.requestVideoFrameCallback === 'function') {
    return new Promise((resolve) => v.requestVideoFrameCallback!((t, meta) => resolve({ at: t, mediaTime: meta.mediaTime, by: 'requestVideoFrameCallback' })));
  }
  return new Promise((resolve) =>
    video.addEventListener('seeked', () => resolve({ at: performance.now(), mediaTime: video.currentTime, by: 'seeked' }), { once: true }),
  );
}

/**
 * The first frame presented after now within a second of `target`
 * (WebKitGTK calls requestVideoFrameCallback once more for the frame shown
 * before a seek), or, where none comes within 2 s of `seeked`, the last
 * frame seen (the check then names the frame it showed).
 */
async function frameNear(video: HTMLVideoElement, target: number, seeked: Promise<unknown>): Promise<{ at: number; mediaTime: number; by: string }> {
  const giveUp = seeked.then(() => new Promise<undefined>((resolve) => setTimeout(resolve, 2000, undefined)));
  giveUp.catch(() => {}); // a seek that never ends fails through `seeked` itself
  let last = await nextFrame(video);
  while (Math.abs(last.mediaTime - target) > 1) {
    const next = await Promise.race([nextFrame(video), giveUp]);
    if (next === undefined) break;
    last = next;
  }
  return last;
}

/** Plays from the start until `seconds` of video have played. */
async function playFromStart(video: HTMLVideoElement, seconds: number): Promise<{ firstFrameMs: number; played: number }> {
  const t0 = performance.now();
  const first = nextFrame(video);
  await video.play();
  const firstFrameMs = (await first).at - t0;
  await when(video, ['timeupdate', 'error'], () => video.currentTime >= seconds || video.error !== null, `playing ${seconds} s`, 30_000);
  if (video.error !== null) throw new Error(`the video failed while playing: ${video.error.code} ${video.error.message}`);
  return { firstFrameMs, played: video.currentTime };
}

/** What the worker has answered so far. */
const servedNow = async (worker: ServiceWorker) => (await ask<{ served: Served[] }>(worker, { type: 'log' })).served;

/**
 * One seek, paused: its latency to the first frame, the mark the server
 * counts its bytes under, and what the worker had sent just before that
 * mark and just after it. The media element goes on reading between the
 * two messages, so the previous seek's plaintext is counted up to the
 * second (page/test/video-check.ts), its bytes at the server up to the mark.
 */
async function seek(worker: ServiceWorker, video: HTMLVideoElement, index: number, target: number) {
  const before = await servedNow(worker);
  await post('/mark', { phase: `seek ${index}`, at: now() });
  const marked = await servedNow(worker);
  const from = now();
  const t0 = performance.now();
  const seeked = when(video, ['seeked'], () => !video.seeking, 'seeked', 10_000);
  const frame = frameNear(video, target, seeked);
  video.currentTime = target;
  const [shown] = await Promise.all([frame, seeked]);
  const seekedMs = performance.now() - t0;
  return { index, target, from, firstFrameMs: shown.at - t0, frameTime: shown.mediaTime, seekedMs, by: shown.by, before, marked };
}

/** Every range the worker answered for `path`, fetched again through it and from `plain`, compared; the bytes compared. */
async function compareServed(served: Served[], path: string, plain: string): Promise<{ ranges: number; bytes: number; mismatches: string[] }> {
  const mismatches: string[] = [];
  let bytes = 0;
  let ranges = 0;
  for (const s of served) {
    if (s.path !== path || s.sent === 0) continue;
    const range = `bytes=${s.start}-${s.start + s.sent - 1}`;
    const [again, expected] = await Promise.all(
      [path, plain].map(async (url) => new Uint8Array(await (await fetch(url, { headers: { range } })).arrayBuffer())),
    );
    ranges++;
    bytes += s.sent;
    if (again!.length !== s.sent || expected!.length !== s.sent) mismatches.push(`${range}: ${again!.length} and ${expected!.length} bytes`);
    else if (again!.some((b, i) => b !== expected![i])) mismatches.push(`${range}: other bytes`);
  }
  return { ranges, bytes, mismatches };
}

/** The tampered file: seeks to just before its changed chunk and plays; resolves with how it stopped. */
async function playTampered(video: HTMLVideoElement, config: Config): Promise<{ error: number | undefined; message: string; at: number; ms: number }> {
  video.src = 'play/tampered.webm';
  await when(video, ['loadedmetadata', 'error'], () => video.readyState >= 1 || video.error !== null, 'the tampered file loads', 20_000);
  video.currentTime = Math.max(0, config.tamperedAt - 1);
  const t0 = performance.now();
  video.play().catch(() => {});
  const stopped = await when(video, ['error', 'ended'], () => video.error !== null || video.ended, 'an error from the tampered chunk', 30_000).then(
    () => '',
    (e: Error) => `${e.message} (readyState ${video.readyState}, networkState ${video.networkState}, paused ${video.paused})`,
  );
  return { error: video.error?.code, message: video.error?.message || stopped, at: video.currentTime, ms: performance.now() - t0 };
}

async function run(): Promise<unknown> {
  const config = (await (await fetch('/config.json')).json()) as Config;
  const worker = await serviceWorker();
  const { identity, readAhead } = config;
  const film = await addVideo(worker, { encrypted: config.encrypted, path: 'play/film.webm', identity, readAhead });
  await addVideo(worker, { encrypted: config.tampered, path: 'play/tampered.webm', identity, readAhead });
  const video = document.getElementById('video') as HTMLVideoElement;
  video.muted = true;
  video.src = 'play/film.webm';
  await post('/mark', { phase: 'play', at: now() });
  const play = await playFromStart(video, 2);
  video.pause();
  const seeks = [];
  for (const [i, target] of config.seeks.entries()) seeks.push(await seek(worker, video, i, target));
  // The log after the mark, as a seek's `marked`: it ends the last seek's plaintext.
  await post('/mark', { phase: 'compare', at: now() });
  const log = await ask<{ served: Served[]; stats: Record<string, unknown> }>(worker, { type: 'log' });
  const filmPath = new URL('play/film.webm', location.href).pathname;
  const compared = await compareServed(log.served, filmPath, config.plain);
  await post('/mark', { phase: 'tampered', at: now() });
  const tampered = await playTampered(video, config);
  const after = await ask<{ served: Served[]; stats: Record<string, unknown> }>(worker, { type: 'log' });
  return {
    size: film.size,
    play,
    seeks,
    compared,
    tampered,
    served: log.served,
    tamperedServed: after.served.filter((s) => s.path !== filmPath),
    stats: after.stats,
  };
}

run().then(
  (value) => post('/__result', { ok: true, value }),
  (e: unknown) => post('/__result', { ok: false, error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) }),
);
