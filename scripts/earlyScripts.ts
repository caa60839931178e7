/**
 * Puts an inline script at the top of index.html's head, right after the
 * charset: before the stylesheet, which would otherwise hold the script back
 * until it had loaded (a classic script waits for the stylesheets above it),
 * and before the module scripts.
 */
export function insertEarlyScript(html: string, script: string): string {
  const charset = /<meta charset="[^"]*"\s*\/?>/i.exec(html);
  if (!charset) throw new Error("index.html has no <meta charset>: the early scripts go right after it");
  const at = charset.index + charset[0].length;
  return `${html.slice(0, at)}\n    <script>${script}</script>${html.slice(at)}`;
}
