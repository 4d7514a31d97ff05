import type { FastifyInstance, FastifyReply } from "fastify";

/**
 * What /portal answers on a process that does not serve the portal: a worker whose primary
 * holds the embedded database (WORKERS > 1 without DATABASE_URL). Better a page that says why
 * than a bare 404.
 */
const PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Portal unavailable</title>
<p>The portal is not served by this process. With several workers on the embedded database only
the API is served; run with <code>WORKERS=1</code>, or with <code>DATABASE_URL</code> (PostgreSQL).</p></html>\n`;

export async function portalUnavailablePlugin(app: FastifyInstance): Promise<void> {
  const answer = async (_request: unknown, reply: FastifyReply) =>
    reply.code(503).header("retry-after", "3600").type("text/html; charset=utf-8").send(PAGE);
  app.get("/", answer);
  app.get("/*", answer);
}
