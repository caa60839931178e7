import fs from "node:fs";
import { createRequire } from "node:module";
import type { Plugin } from "vite";

const PACKAGE = "@radix-ui/react-icons";
const BARREL = "\0radix-icons";
const HELPERS = "\0radix-icons/helpers";
const ICON = "\0radix-icon:";

/**
 * @radix-ui/react-icons ships its 300-odd icons as one ES module, and a module
 * belongs to one chunk: every icon the app uses anywhere would load with the
 * first page that uses any. This plugin serves the package as a barrel of one
 * small module per icon, cut from the package's own file at build time, so each
 * page's chunks carry only the icons that page draws. Imports stay
 * `import { XIcon } from "@radix-ui/react-icons"`.
 */
export function radixIconsPerModule(): Plugin {
  let source: string | null = null;
  let blocks: Map<string, string> | null = null;
  let helpers = "";
  const read = () => {
    if (blocks) return blocks;
    const require = createRequire(import.meta.url);
    const file = require.resolve(`${PACKAGE}/dist/react-icons.esm.js`);
    source = fs.readFileSync(file, "utf8");
    const helperMatch = /function _objectWithoutPropertiesLoose[\s\S]*?\n}\n/.exec(source);
    if (!helperMatch) throw new Error(`${PACKAGE}: helper not found; update scripts/radixIconsPlugin.ts`);
    helpers = helperMatch[0];
    blocks = new Map();
    // Each icon: `var _excluded$N = ["color"];\nvar NameIcon = /*#__PURE__*/forwardRef(...);\n`
    const re = /var (_excluded[\w$]*) = \["color"\];\nvar (\w+) = \/\*#__PURE__\*\/forwardRef\(([\s\S]*?)\n\}\);\n/g;
    for (const m of source.matchAll(re)) {
      const [, excluded, name, body] = m;
      blocks.set(
        name,
        `var ${excluded} = ["color"];\nvar ${name} = /*#__PURE__*/forwardRef(${body}\n});\nexport { ${name} };\n`,
      );
    }
    const exported =
      /export \{([^}]*)\}/
        .exec(source)?.[1]
        .split(",")
        .map((s) => s.trim()) ?? [];
    const missing = exported.filter((name) => name && !blocks!.has(name));
    if (exported.length === 0 || missing.length > 0) {
      throw new Error(
        `${PACKAGE}: could not split ${missing.join(", ") || "the module"}; update scripts/radixIconsPlugin.ts`,
      );
    }
    return blocks;
  };
  return {
    name: "radix-icons-per-module",
    enforce: "pre",
    resolveId(id) {
      if (id === PACKAGE) return { id: BARREL, moduleSideEffects: false };
      if (id === HELPERS || id.startsWith(ICON)) return { id, moduleSideEffects: false };
      return null;
    },
    load(id) {
      if (id === BARREL) {
        return [...read().keys()].map((name) => `export { ${name} } from ${JSON.stringify(ICON + name)};`).join("\n");
      }
      if (id === HELPERS) {
        read();
        return `export ${helpers}`;
      }
      if (id.startsWith(ICON)) {
        const block = read().get(id.slice(ICON.length));
        if (!block) throw new Error(`${PACKAGE}: no icon ${id.slice(ICON.length)}`);
        return `import { forwardRef, createElement } from "react";\nimport { _objectWithoutPropertiesLoose } from ${JSON.stringify(HELPERS)};\n${block}`;
      }
      return null;
    },
  };
}
