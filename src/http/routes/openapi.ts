import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { projectPath } from "../../paths.js";

/** The OpenAPI 3.1 description kept in docs/openapi.json, served as it is at GET /openapi.json. */
export function loadOpenApiDocument(): string {
  return readFileSync(projectPath("docs", "openapi.json"), "utf8");
}

export function registerOpenApiRoute(app: FastifyInstance): void {
  const document = loadOpenApiDocument();
  app.get("/openapi.json", async (_request, reply) => {
    return reply.type("application/json; charset=utf-8").send(document);
  });
}
