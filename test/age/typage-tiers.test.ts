/**
 * The typage API alone in a process, as a page of it has it: no other
 * entry loaded, so ChaCha's js tier is not given at once (chacha/
 * tiers.ts) but imported by the first call that runs on it (chacha/
 * tiers-on-demand.ts engineReady): after ready({ tier: 'js' }), whole
 * files and streams are written and read on the js tier; by default, on
 * the kernels'. Node only (a child process).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

/** Runs the calls in a new Node process, `tier` asked for first (or nothing asked), and gives what they report. */
function runAlone(tier: 'js' | undefined): { text: string; streamed: number; tier: string } {
  const script = `
    const api = await import('fourfold/age/typage');
    const kernels = await import(new URL('dist/runtime/kernels.js', 'file://' + process.cwd() + '/').href);
    if (process.env.TIER) await kernels.ready({ tier: process.env.TIER });
    const identity = await api.generateX25519Identity();
    const e = new api.Encrypter();
    e.addRecipient(await api.identityToRecipient(identity));
    const d = new api.Decrypter();
    d.addIdentity(identity);
    const text = await d.decrypt(await e.encrypt('hello, age'), 'text');
    const plain = new Uint8Array(200_000).fill(7);
    const source = new ReadableStream({ start(c) { c.enqueue(plain); c.close(); } });
    const sealed = new Uint8Array(await new Response(await e.encrypt(source)).arrayBuffer());
    const opened = new Uint8Array(await new Response(await d.decrypt(new Blob([sealed]).stream())).arrayBuffer());
    const streamed = opened.length === plain.length && opened.every((b) => b === 7) ? opened.length : -1;
    process.stdout.write(JSON.stringify({ text, streamed, tier: kernels.tier() }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: new URL('../../', import.meta.url),
    env: { ...process.env, TIER: tier ?? '' },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { text: string; streamed: number; tier: string };
}

it("on the js tier, asked for, the typage API's calls import it and run on it, whole and streamed", () => {
  assert.deepEqual(runAlone('js'), { text: 'hello, age', streamed: 200_000, tier: 'js' });
});

it("by default its calls run on the kernels' tier (or node:crypto's), the js tier never needed", () => {
  const r = runAlone(undefined);
  assert.deepEqual({ text: r.text, streamed: r.streamed }, { text: 'hello, age', streamed: 200_000 });
  assert.notEqual(r.tier, 'js');
});
