import type { BuildOptions } from "esbuild";

/** esbuild's options for bundling `<srcDir>/cli/cli.ts` into `outfile` (see bundleOptions.mjs). */
export function bundleOptions(srcDir: string, outfile: string): BuildOptions & { write: false; metafile: true };
