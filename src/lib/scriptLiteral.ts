/** A value as a JavaScript literal inside an inline `<script>` (index.html's early scripts). */
export function scriptLiteral(value: unknown): string {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) throw new TypeError("scriptLiteral: the value has no JSON form");
  // JSON.stringify is valid JS, but the HTML parser ends a script at `</script` (or after `<!--`): `<` as \u003c.
  // U+2028/9 are escaped too: engines before ES2019 read them as line ends, a syntax error in a string.
  return json.replace(/[<\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
