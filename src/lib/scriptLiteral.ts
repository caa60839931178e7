/**
 * A value as a JavaScript literal to write inside an inline `<script>` element
 * of an HTML page (index.html's early scripts: scripts/routePreloadPlugin.ts,
 * src/features/scene/list/firstPage.ts).
 *
 * JSON.stringify gives a valid JavaScript expression for any JSON value, and
 * since ES2019 (JSON a subset of ECMAScript) that includes strings holding
 * U+2028 and U+2029. The HTML parser, though, ends a script at the first
 * `</script` whatever the JavaScript means, and `<!--` followed by `<script`
 * changes where it ends: with every `<` written as `\u003c` neither can appear.
 * U+2028 and U+2029 are escaped too, so an engine older than ES2019 (where they
 * end a line, a syntax error inside a string) reads the same value.
 */
export function scriptLiteral(value: unknown): string {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) throw new TypeError("scriptLiteral: the value has no JSON form");
  return json.replace(/[<\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
