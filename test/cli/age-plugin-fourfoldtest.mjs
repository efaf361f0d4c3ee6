/**
 * An age plugin for the command's tests (C2SP age-plugin), written here
 * from the spec, apart from the command's code, so that the client is
 * checked against a second reading of the protocol (the Go age drives it
 * too). Its recipients "age1fourfoldtest1..." and identities
 * "AGE-PLUGIN-FOURFOLDTEST-1..." hold the same 16 random bytes; a file
 * key is wrapped by XOR with SHA-256 of them: a test scheme, not a secure
 * one. FOURFOLD_TEST_PLUGIN picks a behaviour, well-behaved or faulty
 * (see MODES); FOURFOLD_TEST_LABELS, the labels it sends.
 *
 *     node age-plugin-fourfoldtest.mjs --age-plugin=recipient-v1
 */
import { spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { readSync, writeFileSync, writeSync } from 'node:fs';
import { bech32 } from '@scure/base';

const MODE = process.env.FOURFOLD_TEST_PLUGIN ?? '';
/**
 * ask: a message, a PIN (1234) and a confirmation before the work, an
 * error without them; unknown: a command the client must answer
 * "unsupported"; exit: exits (status 3) in phase 2, saying why on standard
 * error; malformed: a stanza that is not one; error: an error stanza;
 * index: a stanza for file 1; none: no stanza; twice: two file keys;
 * flood: a line of 5 MiB; linger: ignores SIGINT and stays after "done";
 * short: a file key of 15 bytes; daemon: before it exits, starts a
 * process of its own that holds its standard input, output and error and
 * lives until killed (its id written to FOURFOLD_TEST_DAEMON_PID's file);
 * daemon-exit: starts one that holds its standard error alone, then does
 * as exit.
 */
const MODES = ['', 'ask', 'unknown', 'exit', 'malformed', 'error', 'index', 'none', 'twice', 'flood', 'linger', 'short', 'daemon', 'daemon-exit'];
if (!MODES.includes(MODE)) throw new Error(`unknown FOURFOLD_TEST_PLUGIN ${MODE}`);

/** Standard input, read a line at a time (synchronously: the protocol is a dialogue). */
let pending = Buffer.alloc(0);
function readLine() {
  for (;;) {
    const lf = pending.indexOf(0x0a);
    if (lf >= 0) {
      const line = pending.subarray(0, lf).toString('latin1');
      pending = pending.subarray(lf + 1);
      return line;
    }
    const chunk = Buffer.alloc(65536);
    let n;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      throw e;
    }
    if (n === 0) process.exit(0);
    pending = Buffer.concat([pending, chunk.subarray(0, n)]);
  }
}

/** One stanza: "-> TYPE ARGS..." and base64 body lines, the last shorter than 64 columns. */
function readStanza() {
  const first = readLine();
  if (!first.startsWith('-> ')) throw new Error(`not a stanza: ${first}`);
  const [type, ...args] = first.slice(3).split(' ');
  const parts = [];
  for (;;) {
    const line = readLine();
    parts.push(Buffer.from(line, 'base64'));
    if (line.length < 64) break;
  }
  return { type, args, body: Buffer.concat(parts) };
}

function writeStanza(type, args = [], body = Buffer.alloc(0)) {
  const b64 = body.toString('base64').replace(/=+$/, '');
  let text = `-> ${[type, ...args].join(' ')}\n`;
  for (let at = 0; at <= b64.length; at += 64) text += `${b64.slice(at, at + 64)}\n`;
  let bytes = Buffer.from(text, 'latin1');
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(1, bytes));
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

/** Sends a command of phase 2 and reads the client's answer. */
function ask(type, args = [], body = Buffer.alloc(0)) {
  writeStanza(type, args, body);
  return readStanza();
}

/** Phase 1: the client's commands up to "done". */
function phaseOne() {
  const commands = [];
  for (;;) {
    const s = readStanza();
    if (s.type === 'done') return commands;
    commands.push(s);
  }
}

const dataOf = (key) => Buffer.from(bech32.fromWords(bech32.decode(key.toLowerCase(), false).words));
const pad = (data) => createHash('sha256').update('fourfoldtest').update(data).digest();
const tagOf = (data) => pad(data).subarray(16, 20).toString('hex');
const xor = (a, b) => Buffer.from(a.map((x, i) => x ^ b[i]));

/** What a mode does before the work: true to go on. */
function before() {
  if (MODE === 'daemon-exit') startDaemon(['ignore', 'ignore', 'inherit']);
  if (MODE === 'exit' || MODE === 'daemon-exit') {
    process.stderr.write('the key was unplugged\n');
    process.exit(3);
  }
  if (MODE === 'malformed') writeSync(1, '-> recipient-stanza 0 fourfoldtest\n!!!!\n');
  if (MODE === 'flood') writeStanza('msg', ['a'.repeat(5 << 20)]);
  if (MODE === 'error') {
    ask('error', ['internal'], Buffer.from('the key is locked'));
    return false;
  }
  if (MODE === 'unknown' && ask('frobnicate', ['1']).type !== 'unsupported') throw new Error('the client did not say unsupported');
  // Grease, as Go's plugins send it: the client must answer "unsupported".
  if (randomInt(2) === 0 && ask(`grease-${randomInt(1e9)}`, ['x']).type !== 'unsupported') throw new Error('grease was not unsupported');
  if (MODE === 'ask') {
    if (ask('msg', [], Buffer.from('touch the key')).type !== 'ok') return fail('the message was not shown');
    const pin = ask('request-secret', [], Buffer.from('PIN for the test key:'));
    if (pin.type !== 'ok' || pin.body.toString() !== '1234') return fail(`no PIN (${pin.type})`);
    const sure = ask('confirm', [Buffer.from('go on').toString('base64').replace(/=+$/, '')], Buffer.from('Really use the test key?'));
    if (sure.type !== 'ok' || sure.args[0] !== 'yes') return fail('not confirmed');
  }
  return true;
}

function fail(message) {
  ask('error', ['internal'], Buffer.from(message));
  return false;
}

function done() {
  // Started before "done", after which the client may end this plugin at once (SIGINT).
  if (MODE === 'daemon') startDaemon('inherit');
  writeStanza('done');
  if (MODE === 'linger') {
    process.on('SIGINT', () => {});
    setInterval(() => {}, 1000);
  }
}

/** A process in a session of its own, holding what `stdio` gives it of this plugin's, that waits for ever; this plugin does not wait for it. */
function startDaemon(stdio) {
  const daemon = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { detached: true, stdio });
  writeFileSync(process.env.FOURFOLD_TEST_DAEMON_PID, String(daemon.pid));
  daemon.unref();
}

function recipientV1() {
  const commands = phaseOne();
  const keys = commands.filter((s) => s.type === 'add-recipient' || s.type === 'add-identity').map((s) => dataOf(s.args[0]));
  const fileKeys = commands.filter((s) => s.type === 'wrap-file-key').map((s) => s.body);
  if (!before()) return done();
  if (commands.some((s) => s.type === 'extension-labels')) {
    const labels = (process.env.FOURFOLD_TEST_LABELS ?? '').split(' ').filter((l) => l !== '');
    if (ask('labels', labels).type !== 'ok') throw new Error('labels not ok');
  }
  if (MODE !== 'none') {
    for (const [i, fileKey] of fileKeys.entries()) {
      for (const data of keys) {
        const index = MODE === 'index' ? i + 1 : i;
        if (ask('recipient-stanza', [String(index), 'fourfoldtest', tagOf(data)], xor(fileKey, pad(data))).type !== 'ok') throw new Error('stanza not ok');
      }
    }
  }
  done();
}

function identityV1() {
  const commands = phaseOne();
  const keys = commands.filter((s) => s.type === 'add-identity').map((s) => dataOf(s.args[0]));
  const stanzas = commands.filter((s) => s.type === 'recipient-stanza' && s.args[1] === 'fourfoldtest');
  if (!before()) return done();
  for (const s of stanzas) {
    const data = keys.find((d) => tagOf(d) === s.args[2]);
    if (data === undefined) continue;
    const fileKey = xor(s.body, pad(data)).subarray(MODE === 'short' ? 1 : 0);
    const times = MODE === 'twice' ? 2 : 1;
    for (let i = 0; i < times; i++) if (ask('file-key', [s.args[0]], fileKey).type !== 'ok') throw new Error('file key not ok');
    break;
  }
  done();
}

const machine = process.argv.find((a) => a.startsWith('--age-plugin='))?.slice('--age-plugin='.length);
if (machine === 'recipient-v1') recipientV1();
else if (machine === 'identity-v1') identityV1();
else {
  process.stderr.write(`age-plugin-fourfoldtest: unknown state machine ${machine}\n`);
  process.exit(1);
}
