/**
 * The example's Service Worker: answers the video element's Range
 * requests for each video the page hands it (player.ts addVideo) with the
 * plaintext of an age file on the server, decrypted by range
 * (fourfold/age: httpRangeSource reads the file's header, then only the
 * 64 KiB chunks each range needs, and fetches a few ahead; rangeResponse
 * answers 206 with the verified plaintext, 416 past its end). A chunk
 * that does not verify errors the response's body, and the element's
 * next request, which starts there, gets 502: the element stops with an
 * error, and no byte of that chunk reaches it.
 *
 * It keeps a log of the ranges it answered (the last 500: where each
 * started, how many bytes it sent, how it ended) and each source's counts,
 * which the page can ask for ({ type: 'log' }); the check in two browsers
 * (page/test/video.ts) reads them. esbuild bundles this file into a
 * classic script (every browser runs those as Service Workers).
 */
import { type HttpRangeSource, httpRangeSource, openRangeReader, type RangeReader, rangeResponse } from 'fourfold/age';

/** The parts of a ServiceWorkerGlobalScope used here (the project's TypeScript library is the DOM's). */
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', listener: (event: { waitUntil(p: Promise<unknown>): void }) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: { request: Request; respondWith(r: Promise<Response>): void }) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
}

/** A range answered: where it started, what it sent, how it ended. */
export interface Served {
  /** Its number, counting from 0 in the worker's life. */
  readonly id: number;
  readonly path: string;
  readonly range: string | null;
  readonly status: number;
  /** The plaintext offset of its first byte. */
  readonly start: number;
  /** When it was asked for (ms since the epoch, performance.timeOrigin + now). */
  readonly at: number;
  sent: number;
  ended: 'open' | 'done' | 'cancelled' | 'error';
  error?: string;
}

const scope = self as unknown as WorkerScope;
const videos = new Map<string, Promise<{ source: HttpRangeSource; reader: RangeReader; type: string }>>();
const served: Served[] = [];
const now = () => performance.timeOrigin + performance.now();

scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));

scope.addEventListener('message', (event) => {
  const port = event.ports[0]!;
  const message = event.data as { type: 'add' | 'log'; path: string; encrypted: string; identity: string; contentType?: string; readAhead?: number };
  if (message.type === 'log') {
    Promise.all([...videos].map(async ([at, video]) => [at, (await video).source.stats] as const)).then(
      (stats) => port.postMessage({ served, stats: Object.fromEntries(stats) }),
      (e: unknown) => port.postMessage({ error: String(e) }),
    );
    return;
  }
  const { path, encrypted, identity, readAhead } = message;
  const type = message.contentType ?? 'video/webm';
  const opening = (async () => {
    const source = await httpRangeSource(encrypted, readAhead === undefined ? {} : { readAhead });
    return { source, reader: await openRangeReader(source, { identities: [identity] }), type };
  })();
  videos.set(path, opening);
  opening.then(
    ({ reader }) => port.postMessage({ size: reader.size }),
    (e: unknown) => port.postMessage({ error: `${(e as Error).name}: ${(e as Error).message}` }),
  );
});

scope.addEventListener('fetch', (event) => {
  const path = new URL(event.request.url).pathname;
  const video = videos.get(path);
  if (video === undefined) return;
  event.respondWith(video.then(async ({ reader, type }) => logged(path, event.request, await rangeResponse(event.request, reader, { type }))));
});

/** `response`, its body passed on through a reader that logs what it sent and how it ended. */
function logged(path: string, request: Request, response: Response): Response {
  const start = Number(/bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1] ?? 0);
  const entry: Served = {
    id: served.length === 0 ? 0 : served.at(-1)!.id + 1,
    path,
    range: request.headers.get('range'),
    status: response.status,
    start,
    at: now(),
    sent: 0,
    ended: 'open',
  };
  served.push(entry);
  if (served.length > 500) served.shift();
  if (response.body === null) {
    entry.ended = 'done';
    return response;
  }
  const body = response.body.getReader();
  let cancelled = false;
  const passed = new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        try {
          const { done, value } = await body.read();
          if (cancelled) return;
          if (done) {
            entry.ended = 'done';
            controller.close();
            return;
          }
          entry.sent += value.length;
          controller.enqueue(value);
        } catch (e) {
          entry.ended = 'error';
          entry.error = `${(e as Error).name}: ${(e as Error).message}`;
          controller.error(e);
        }
      },
      cancel: (reason) => {
        cancelled = true;
        entry.ended = 'cancelled';
        return body.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(passed, { status: response.status, headers: response.headers });
}
