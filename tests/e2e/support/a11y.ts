import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * Serious and critical WCAG 2.1 A/AA violations on the current page, as readable lines
 * (an empty list means none). `excludeToasts` leaves sonner's toasts out: a toast caught
 * mid-fade reads as low contrast.
 */
export async function seriousViolations(page: Page, opts: { excludeToasts?: boolean } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  if (opts.excludeToasts) builder = builder.exclude("[data-sonner-toaster]");
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 5)
          .join(", ")})`,
    );
}
