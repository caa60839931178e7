/** Replaces this thread's `Math.random` with one drawing from the running function's own seeded generator. */
export function installFunctionRandom(): void;
/** Runs one function execution with a `Math.random` generator of its own, seeded from the OS's cryptographic source. */
export function withFunctionRandom<T>(run: () => T): T;
