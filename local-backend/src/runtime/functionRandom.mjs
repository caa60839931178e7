/**
 * `Math.random` for function code, as Convex's isolate gives it: each function run (a query, a
 * mutation, an action, each nested run too) draws from its own generator seeded with 32 fresh
 * bytes of the operating system's cryptographic source (Convex: a ChaCha12 seeded per run from
 * the runtime's random source). Node's own `Math.random` is one xorshift128+ per thread whose
 * state a few outputs reveal, so a caller who saw one lottery draw could compute the next.
 * Here the stream is ChaCha20's keystream (node:crypto); outside any run the backend's own code
 * draws from one such generator too.
 *
 * Plain JavaScript: the action worker threads (actionWorker.mjs) load it without tsx.
 */
import { ContextSlot } from "../common/contextSlot.mjs";
import { createCipheriv, randomBytes } from "node:crypto";

const BLOCK = Buffer.alloc(512);

class SeededRandom {
  constructor() {
    // 256-bit key from the OS; the 16-byte IV is ChaCha20's counter and nonce.
    this.cipher = createCipheriv("chacha20", randomBytes(32), randomBytes(16));
    this.bytes = Buffer.alloc(0);
    this.at = 0;
  }

  /** A double in [0, 1) from 53 random bits. */
  next() {
    if (this.at + 8 > this.bytes.length) {
      this.bytes = this.cipher.update(BLOCK);
      this.at = 0;
    }
    const high = this.bytes.readUInt32LE(this.at) >>> 5;
    const low = this.bytes.readUInt32LE(this.at + 4) >>> 6;
    this.at += 8;
    return (high * 67108864 + low) / 9007199254740992;
  }
}

/** The running function's generator, made on its first draw. */
const current = new ContextSlot();
let outside = null;

function random() {
  const run = current.getStore();
  if (run === undefined) return (outside ??= new SeededRandom()).next();
  return (run.random ??= new SeededRandom()).next();
}

/** Replaces this thread's `Math.random` (once). */
export function installFunctionRandom() {
  if (Math.random === random) return;
  Math.random = random;
}

/** Runs one function execution with a generator of its own. */
export function withFunctionRandom(run) {
  return current.run({ random: undefined }, run);
}
