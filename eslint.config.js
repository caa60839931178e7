import js from "@eslint/js";
import convexPlugin from "@convex-dev/eslint-plugin";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import path from "node:path";

/**
 * Features do not import each other: a route (src/routes) composes them, and
 * what several features share lives in src/components or src/lib.
 */
const featureBoundaries = {
  meta: { type: "problem", schema: [] },
  create(context) {
    const featuresDir = path.join(import.meta.dirname, "src", "features");
    const featureOf = (file) => {
      const relative = path.relative(featuresDir, file);
      return relative.startsWith("..") || path.isAbsolute(relative) ? null : relative.split(path.sep)[0];
    };
    const mine = featureOf(context.filename);
    if (mine === null) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== "string") return;
      let target = null;
      if (source.startsWith("@/")) target = path.join(import.meta.dirname, "src", source.slice(2));
      else if (source.startsWith(".")) target = path.resolve(path.dirname(context.filename), source);
      const theirs = target === null ? null : featureOf(target);
      if (theirs !== null && theirs !== mine) {
        context.report({
          node: node.source,
          message: `The ${mine} feature imports the ${theirs} feature: compose them in a route (src/routes), or move what both need to src/components or src/lib.`,
        });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      "dist",
      "node_modules",
      "convex/_generated",
      "**/_generated/**",
      "test-results",
      "playwright-report",
      ".convex-local*",
      "coverage",
      "local-backend/.build",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ["**/*.{js,mjs,cjs}"], languageOptions: { globals: { ...globals.node } } },
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  // The local backend is typed: `unknown` and real types, not `any` (the few left carry their reason).
  {
    files: ["local-backend/src/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "error" },
  },
  {
    files: ["convex/**/*.ts", "convex-dev/**/*.ts"],
    ignores: ["convex/**/*.test.ts", "convex/testing/test.setup.ts"],
    languageOptions: { parserOptions: { project: "./convex/tsconfig.json", tsconfigRootDir: import.meta.dirname } },
    rules: { "@typescript-eslint/no-floating-promises": "error" },
  },
  // Every write goes through the builders in convex/functions.ts, whose ctx.db runs the
  // derived-data triggers (convex/triggers.ts): a raw mutation would skip them.
  {
    files: ["convex/**/*.ts", "convex-dev/**/*.ts"],
    ignores: ["convex/functions.ts", "convex/_generated/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            "./_generated/server",
            "../_generated/server",
            "../../_generated/server",
            "../convex/_generated/server",
            "../../convex/_generated/server",
          ]
            .map((name) => ({
              name,
              importNames: ["mutation", "internalMutation"],
              message: "Use the builders in convex/functions.ts: their ctx.db runs the derived-data triggers.",
            }))
            .concat({
              name: "convex/server",
              importNames: ["mutationGeneric", "internalMutationGeneric"],
              message: "Use the builders in convex/functions.ts: their ctx.db runs the derived-data triggers.",
            }),
        },
      ],
    },
  },
  // The dev tools (convex-dev/: seeding, fixtures) are Convex functions too.
  ...convexPlugin.configs.recommended.map((config) => ({ ...config, files: [...config.files, "convex-dev/**/*.ts"] })),
  // Environment variables are set per deployment (and by the local backend's `env set`).
  { files: ["convex/**/*.ts", "convex-dev/**/*.ts"], rules: { "@convex-dev/no-process-env": "off" } },
  {
    files: ["src/features/**/*.{ts,tsx}"],
    plugins: { stagetime: { rules: { "feature-boundaries": featureBoundaries } } },
    rules: { "stagetime/feature-boundaries": "error" },
  },
  // The root Theme renders without Radix's tooltip provider (scripts/radixThemeTooltipPlugin.ts):
  // a Radix tooltip would fail, and would pull popper and floating-ui into every page's entry.
  {
    files: ["src/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["@radix-ui/themes", "radix-ui"].map((name) => ({
            name,
            importNames: ["Tooltip"],
            message: "No Radix tooltips: give the control a title (see scripts/radixThemeTooltipPlugin.ts).",
          })),
          patterns: [
            {
              group: ["@radix-ui/react-tooltip", "@radix-ui/themes/**/tooltip*", "radix-ui/**/tooltip*"],
              message: "No Radix tooltips: give the control a title (see scripts/radixThemeTooltipPlugin.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
);
