import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { projectPath } from "../../paths.js";
import type { AssetUrls } from "./layout.js";

/**
 * The portal's two static files, served by the service itself (no CDN): read once at start,
 * addressed by a hash of their content so browsers keep them for a year and a new version is a
 * new URL.
 */
const FILES = {
  css: { name: "portal.css", type: "text/css; charset=utf-8" },
  js: { name: "portal.js", type: "text/javascript; charset=utf-8" },
} as const;

export function registerAssets(app: FastifyInstance): AssetUrls {
  const urls: Record<string, string> = {};
  for (const [kind, file] of Object.entries(FILES)) {
    const body = readFileSync(projectPath("src", "portal", "view", "assets", file.name));
    const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
    const url = `/assets/${hash}/${file.name}`;
    urls[kind] = `/portal${url}`;
    app.get(url, async (_request, reply) =>
      reply.type(file.type).header("cache-control", "public, max-age=31536000, immutable").send(body),
    );
  }
  return { css: urls.css ?? "", js: urls.js ?? "" };
}
