/** File storage over HTTP: the single-use upload URL (streamed to disk) and stored files (streamed from disk). */
import type http from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { FileStorage } from "../engine/index.js";
import { corsHeaders, HttpError, lingerOnUnreadBody, sendJson } from "./httpCommon.js";
import { UploadTooLarge } from "../storage/index.js";

/**
 * The largest file upload: 10 MiB. The app's only uploads are profile photos
 * (5 MB at most, checked by the app), so this is twice that with room for
 * encoding overhead; uploads stream to disk, so the cap bounds disk use per
 * upload URL, not memory.
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The image type the first bytes of a file prove (png, jpeg, gif, webp), or null. */
export function sniffImage(head: Buffer): string | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return "image/png";
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  const ascii = head.toString("latin1");
  if (ascii.startsWith("GIF87a") || ascii.startsWith("GIF89a")) return "image/gif";
  if (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP") return "image/webp";
  return null;
}

/** What the storage routes use of the engine: its stored files. */
type UploadFiles = Pick<FileStorage, "claimUploadToken" | "storeUpload" | "getFile">;

/** POST /api/storage/upload?token=…: the body is the file. */
export async function handleUpload(
  files: UploadFiles,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
): Promise<void> {
  const tooLarge = () => {
    // Refused without reading the rest: the connection closes after the answer, lingering (httpCommon.ts)
    // unless the upload's stream was already cut off (its socket is gone).
    lingerOnUnreadBody(req);
    sendJson(
      req,
      res,
      413,
      { code: "PayloadTooLarge", message: `Uploads are limited to ${MAX_UPLOAD_BYTES} bytes` },
      { Connection: "close" },
    );
  };
  if (Number(req.headers["content-length"] ?? 0) > MAX_UPLOAD_BYTES) return tooLarge();
  if (!files.claimUploadToken(url.searchParams.get("token"))) {
    throw new HttpError(401, "InvalidUploadToken", "The upload URL is invalid, expired or already used");
  }
  const contentType = (req.headers["content-type"] as string | undefined) ?? null;
  let storageId: string;
  try {
    storageId = await files.storeUpload(req, contentType, MAX_UPLOAD_BYTES);
  } catch (error) {
    if (error instanceof UploadTooLarge) return tooLarge();
    throw error;
  }
  sendJson(req, res, 200, { storageId });
}

/** GET or HEAD /api/storage/<id>. */
export async function serveFile(
  files: UploadFiles,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  method: string,
  encodedId: string,
): Promise<void> {
  let storageId: string;
  try {
    storageId = decodeURIComponent(encodedId);
  } catch {
    throw new HttpError(400, "BadStorageId", "The storage id in the URL is not valid percent-encoding");
  }
  const file = files.getFile(storageId);
  if (!file) throw new HttpError(404, "FileNotFound", "File not found");
  const image = sniffImage(Buffer.from(await file.blob.slice(0, 12).arrayBuffer()));
  // Only a checked raster image whose declared type matches its bytes is shown
  // inline; anything else (HTML, SVG, a PDF, a mislabelled image) downloads,
  // and never runs as a page of the API origin.
  const inline = image !== null && image === file.contentType?.split(";")[0].trim().toLowerCase();
  res.writeHead(200, {
    "Content-Type": file.contentType ?? "application/octet-stream",
    "Content-Length": String(file.blob.size),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    ...(inline ? {} : { "Content-Disposition": "attachment" }),
    "Cache-Control": "private, max-age=2592000",
    ...corsHeaders(req),
  });
  if (method === "HEAD") {
    res.end();
    return;
  }
  // Streamed from disk: a large file is never held in memory whole.
  await pipeline(Readable.fromWeb(file.blob.stream() as WebReadableStream<Uint8Array>), res);
  return;
}
