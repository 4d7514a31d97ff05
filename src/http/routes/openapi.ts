import { readFileSync } from "node:fs";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { projectPath } from "../../paths.js";

/** The OpenAPI 3.1 description kept in docs/openapi.json. */
export function loadOpenApiDocument(): string {
  return readFileSync(projectPath("docs", "openapi.json"), "utf8");
}

/** The address a request came to (behind a trusted proxy, the one the client used). */
function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * GET /openapi.json: the document, its `servers` naming the API's address: `publicUrl` when set,
 * else the address the request came to, so the reference at /docs calls the service it is read on.
 */
export function registerOpenApiRoute(app: FastifyInstance, publicUrl?: string): void {
  const document = JSON.parse(loadOpenApiDocument()) as { servers?: unknown };
  const fixed = publicUrl === undefined ? undefined : served(document, publicUrl.replace(/\/+$/, ""));
  app.get("/openapi.json", async (request, reply) => {
    const body = fixed ?? served(document, requestOrigin(request));
    return reply.type("application/json; charset=utf-8").send(body);
  });
}

function served(document: { servers?: unknown }, url: string): string {
  return JSON.stringify({ ...document, servers: [{ url, description: "This service." }] });
}
