import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";

/**
 * GET /docs: the interactive API reference, Swagger UI from the `swagger-ui-dist` package served
 * by the service itself (no CDN), reading GET /openapi.json. Unauthenticated, never billed; its
 * "Try it out" calls the API with the key typed into its Authorize dialog.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Situs API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;

const START = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#reference",
  deepLinking: true,
  defaultModelsExpandDepth: 0,
  presets: [SwaggerUIBundle.presets.apis],
});
`;

/** Scripts and styles from this service only; Swagger UI styles elements inline. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

function swaggerUiFile(name: string): Buffer {
  const root = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return readFileSync(join(root, name));
}

export function registerReferenceRoutes(app: FastifyInstance): void {
  const assets: Record<string, [type: string, body: Buffer | string]> = {
    "": ["text/html; charset=utf-8", PAGE],
    "/swagger-ui.css": ["text/css; charset=utf-8", swaggerUiFile("swagger-ui.css")],
    "/swagger-ui-bundle.js": ["text/javascript; charset=utf-8", swaggerUiFile("swagger-ui-bundle.js")],
    "/start.js": ["text/javascript; charset=utf-8", START],
  };
  for (const [path, [type, body]] of Object.entries(assets)) {
    app.get(`/docs${path}`, async (_request, reply) =>
      reply
        .type(type)
        .header("content-security-policy", CONTENT_SECURITY_POLICY)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", path === "" ? "no-cache" : "public, max-age=3600")
        .send(body),
    );
  }
}
