import type { Page } from "@playwright/test";

/**
 * Touch-target sizes of everything a visitor can press on the current page.
 *
 * The rule, checked on every visible interactive element (links, buttons, form
 * controls, tabs, switches, menu items, anything focusable):
 * - `comfortable` (phones, WCAG 2.5.5): its target is at least 44 × 44 CSS px;
 * - `minimum` (desktop, WCAG 2.5.8): at least 24 × 24 CSS px;
 * - either way, a text link (an `<a>` that reads as text: a Radix `Link` or a plain
 *   inline anchor, not one styled as a button) may be smaller if it is at least
 *   24 × 24 px or, per WCAG 2.5.8's spacing exception, a 24 px circle centred on it
 *   meets no other target (nor another undersized target's circle).
 * A control's target is what a tap on it activates: a switch or checkbox inside its
 * `<label>` counts the label, a text input counts its field's frame (Radix's
 * TextField root). Toasts are left out: they dismiss themselves and swipe away.
 * Returns one readable line per element that misses (an empty list means none).
 */
export async function smallTargets(page: Page, rule: "comfortable" | "minimum"): Promise<string[]> {
  return await page.evaluate((rule) => {
    const INTERACTIVE = [
      "a[href]",
      "button",
      "input:not([type=hidden])",
      "select",
      "textarea",
      "summary",
      "[role=button]",
      "[role=link]",
      "[role=tab]",
      "[role=switch]",
      "[role=checkbox]",
      "[role=radio]",
      "[role=menuitem]",
      "[role=slider]",
      "[tabindex]:not([tabindex='-1'])",
    ].join(",");
    const min = rule === "comfortable" ? 44 : 24;
    const tolerance = 0.5;

    // Focusable containers (a tab panel, a tab list, a dialog) are not themselves targets.
    const CONTAINER = "tablist,tabpanel,group,radiogroup,toolbar,menu,listbox,dialog,alertdialog,region,list,grid";
    const visible = (el: Element): boolean => {
      if (CONTAINER.split(",").includes(el.getAttribute("role") ?? "")) return false;
      if (el.closest("[aria-hidden='true'], [inert], [data-sonner-toaster]")) return false;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.pointerEvents === "none" || Number(style.opacity) === 0) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const union = (a: DOMRect, b: DOMRect): DOMRect => {
      const left = Math.min(a.left, b.left);
      const top = Math.min(a.top, b.top);
      return new DOMRect(left, top, Math.max(a.right, b.right) - left, Math.max(a.bottom, b.bottom) - top);
    };
    const targetBox = (el: Element): DOMRect => {
      let box = el.getBoundingClientRect();
      const label = el.closest("label") ?? (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
      if (label) box = union(box, label.getBoundingClientRect());
      const field = el.closest(".rt-TextFieldRoot, .rt-TextAreaRoot");
      if (field) box = union(box, field.getBoundingClientRect());
      return box;
    };
    const isTextLink = (el: Element): boolean =>
      el.tagName === "A" &&
      !el.classList.contains("rt-BaseButton") &&
      (el.classList.contains("rt-Link") || getComputedStyle(el).display === "inline");
    const describe = (el: Element, box: DOMRect): string => {
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      const name = el.getAttribute("aria-label") ?? (text || el.getAttribute("placeholder") || el.id);
      const role = el.getAttribute("role") ?? el.tagName.toLowerCase();
      return `${role} "${name}" is ${Math.round(box.width)} × ${Math.round(box.height)} px`;
    };

    const elements = [...document.querySelectorAll(INTERACTIVE)].filter(visible);
    // A control nested in another (a button inside a link card) is one target: the outer one.
    const targets = elements
      .filter((el) => !elements.some((other) => other !== el && other.contains(el) && el.tagName !== "INPUT"))
      .map((el) => ({ el, box: targetBox(el), inline: isTextLink(el) }));
    const big = (box: DOMRect, size: number) => box.width + tolerance >= size && box.height + tolerance >= size;
    const undersized = targets.filter((t) => !big(t.box, 24));
    const circleMeets = (t: { box: DOMRect }, other: { box: DOMRect }, otherIsUndersized: boolean): boolean => {
      const cx = t.box.left + t.box.width / 2;
      const cy = t.box.top + t.box.height / 2;
      if (otherIsUndersized) {
        const ox = other.box.left + other.box.width / 2;
        const oy = other.box.top + other.box.height / 2;
        return Math.hypot(cx - ox, cy - oy) < 24;
      }
      // Distance from the circle's centre to the other target's box.
      const dx = Math.max(other.box.left - cx, 0, cx - other.box.right);
      const dy = Math.max(other.box.top - cy, 0, cy - other.box.bottom);
      return Math.hypot(dx, dy) < 12;
    };
    const spaced = (t: (typeof targets)[number]): boolean =>
      targets.every((other) => other === t || !circleMeets(t, other, undersized.includes(other)));

    const misses: string[] = [];
    for (const t of targets) {
      if (big(t.box, min)) continue;
      if (t.inline && (big(t.box, 24) || spaced(t))) continue;
      misses.push(describe(t.el, t.box));
    }
    return misses;
  }, rule);
}
