/**
 * Saves `blob` as `fileName` through a temporary download link. The URL is
 * released after `releaseAfterMs`, once the browser has started reading it.
 */
export function downloadBlob(blob: Blob, fileName: string, releaseAfterMs: number): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), releaseAfterMs);
}
