import { expect, test } from "vitest";
import { scriptLiteral } from "./scriptLiteral";

/** What an HTML parser does with an inline script: its text runs up to the first "</script" (any case). */
function inlineScriptText(script: string): string {
  const html = `<script>${script}</script><p>after</p>`;
  const end = html.toLowerCase().indexOf("</script", "<script>".length);
  return html.slice("<script>".length, end);
}

const awkward = {
  close: "</script><script>alert(1)</script>",
  upper: "</SCRIPT >",
  comment: "<!--<script>",
  separators: "line\u2028paragraph\u2029end",
  nested: ["<", "<!--", "-->", "\u2028"],
  quote: "\"'`\\",
};

test("a literal neither ends nor changes the script it is written in, and reads back as the same value", () => {
  const script = `window.value = ${scriptLiteral(awkward)};`;
  expect(inlineScriptText(script)).toBe(script);
  for (const unsafe of ["<", "</script", "<!--", "\u2028", "\u2029"]) expect(script).not.toContain(unsafe);
  const window: { value?: unknown } = {};
  new Function("window", script)(window);
  expect(window.value).toEqual(awkward);
});

test("plain JSON.stringify would end the script early (what the escaping is for)", () => {
  const script = `window.value = ${JSON.stringify(awkward)};`;
  expect(inlineScriptText(script)).not.toBe(script);
});

test("U+2028 and U+2029 in JSON.stringify's output are valid in a string literal (ES2019), escaped all the same", () => {
  const raw = JSON.stringify("a\u2028b\u2029c");
  expect(raw).toContain("\u2028");
  expect(new Function(`return ${raw};`)()).toBe("a\u2028b\u2029c");
  expect(scriptLiteral("a\u2028b\u2029c")).toBe('"a\\u2028b\\u2029c"');
});

test("strings, numbers and null come out as JSON; a value with no JSON form is refused", () => {
  expect(scriptLiteral("/scene")).toBe('"/scene"');
  expect(scriptLiteral(null)).toBe("null");
  expect(scriptLiteral({ a: [1, "x<y"] })).toBe('{"a":[1,"x\\u003cy"]}');
  expect(() => scriptLiteral(undefined)).toThrow(TypeError);
  expect(() => scriptLiteral(() => 1)).toThrow(TypeError);
});
