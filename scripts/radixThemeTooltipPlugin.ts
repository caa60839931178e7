import type { Plugin } from "vite";

const THEME_MODULE = /@radix-ui[\\/]themes[\\/]dist[\\/]esm[\\/]components[\\/]theme\.js$/;
const IMPORT = /import\{([^}]*)\}from"radix-ui";/;

/**
 * Radix Themes' root `Theme` wraps the app in Radix's Tooltip provider. That one
 * reference keeps the whole tooltip module in the entry chunk, and with it the
 * popper and floating-ui code every lazily loaded menu, popover and select
 * shares (about 20 KB gzip on every page). StageTime shows no Radix tooltips
 * (see eslint.config.js), so the root renders its children without the provider.
 */
export function radixThemeWithoutTooltipProvider(): Plugin {
  return {
    name: "radix-theme-without-tooltip-provider",
    enforce: "pre",
    transform(code, id) {
      if (!THEME_MODULE.test(id)) return null;
      const match = IMPORT.exec(code);
      const binding = match?.[1].split(",").find((part) => part.trim().startsWith("Tooltip as "));
      if (!match || !binding)
        throw new Error(
          `radix-theme-without-tooltip-provider: the Tooltip import in ${id} has changed; update the plugin`,
        );
      const local = binding.split(" as ")[1].trim();
      const rest = match[1]
        .split(",")
        .filter((part) => part !== binding)
        .join(",");
      return code.replace(
        match[0],
        `import{${rest}}from"radix-ui";const ${local}={Provider:function(p){return p.children}};`,
      );
    },
  };
}
