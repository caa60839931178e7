/** Image types a profile photo may have. Raster formats only: an SVG can carry script,
 * and uploaded files are served from the backend's own origin. */
export const PHOTO_CONTENT_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"] as const;

/** True when `contentType` (possibly with parameters) is one of {@link PHOTO_CONTENT_TYPES}. */
export function isAllowedPhotoType(contentType: string | undefined): boolean {
  const base = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return (PHOTO_CONTENT_TYPES as readonly string[]).includes(base);
}
