import { gzipSync } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Prices } from "../accounts/accounts.js";
import { registerAssets } from "./view/assets.js";
import { registerBillingRoutes } from "./pages/billing-routes.js";
import { html } from "./view/html.js";
import { registerKeyRoutes } from "./pages/keys-routes.js";
import { notice } from "./view/layout.js";
import { registerLogRoutes } from "./pages/logs-routes.js";
import { sendPage } from "./portal-context.js";
import type { PortalContext } from "./portal-context.js";
import type { PortalStore } from "./store/portal-store.js";
import type { TeamAccounts } from "../accounts/team-accounts.js";
import { Sessions } from "./store/sessions.js";
import { registerSignInRoutes } from "./pages/sign-in-routes.js";
import { SignInLimit } from "./store/sign-in-limit.js";
import { registerUsageRoutes } from "./pages/usage-routes.js";

/** What the composition root gives the portal (Services.portal). */
export interface PortalServices {
  /** The portal's own tables: sessions, failed sign-ins. */
  store: PortalStore;
  /** What the portal reads and changes of a team in the accounts. */
  accounts: TeamAccounts;
  currency: string;
  prices: Prices;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  signInLimit: { perEmail: number; perClient: number; windowMinutes: number };
  now?: () => Date;
}

/**
 * Headers of every portal answer. The CSP allows only the portal's own files (no inline script,
 * no third party); pages are never framed (clickjacking) nor cached by shared caches.
 */
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
} as const;

const MINUTE_MS = 60_000;
const PURGE_EVERY_MS = 10 * MINUTE_MS;

/** Compresses pages and assets for clients that accept gzip: pages shrink about five times. */
function compress(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const accepts = /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
  if (!accepts || reply.getHeader("content-encoding")) return payload;
  const body = typeof payload === "string" ? Buffer.from(payload) : payload;
  if (!Buffer.isBuffer(body) || body.length < 1024) return payload;
  reply.header("content-encoding", "gzip").header("vary", "Accept-Encoding").removeHeader("content-length");
  return gzipSync(body);
}

/** Cross-site form posts are refused outright when the browser says where they come from. */
function crossSite(request: FastifyRequest): boolean {
  if (request.method !== "POST") return false;
  const site = request.headers["sec-fetch-site"];
  return site === "cross-site";
}

function registerEdge(app: FastifyInstance, context: PortalContext, purge: () => void): void {
  app.addHook("onRequest", async (request, reply) => {
    purge();
    if (crossSite(request)) {
      sendPage(context, reply, 403, {
        title: "Refused",
        body: notice("error", "Forms of this portal can only be sent from its own pages."),
      });
      return reply;
    }
  });
  app.addHook("onSend", async (request, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    return compress(request, reply, payload);
  });
  app.setNotFoundHandler((_request, reply) =>
    sendPage(context, reply, 404, {
      title: "Page not found",
      body: html`<p>There is no such page. <a href="/portal/keys">Go to the portal</a>.</p>`,
    }),
  );
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // The request itself could not be read (a body too large, say): the visitor's doing.
      return sendPage(context, reply, status, {
        title: "Request not accepted",
        body: notice("error", "The request could not be read. Go back and try again."),
      });
    }
    request.log.error({ err: error }, "portal request failed");
    return sendPage(context, reply, 500, {
      title: "Something went wrong",
      body: notice("error", "The page could not be shown. Nothing was lost; try again in a moment."),
    });
  });
}

/** The web portal, registered under /portal outside the API's authentication hooks. */
export function portalPlugin(services: PortalServices) {
  return async function portal(app: FastifyInstance): Promise<void> {
    const now = services.now ?? (() => new Date());
    const sessions = new Sessions(services.store, {
      idleMs: services.sessionIdleMinutes * MINUTE_MS,
      maxMs: services.sessionMaxHours * 60 * MINUTE_MS,
      visitorMs: 2 * 60 * MINUTE_MS,
      now,
    });
    const limit = new SignInLimit(services.store, {
      perEmail: services.signInLimit.perEmail,
      perClient: services.signInLimit.perClient,
      windowMs: services.signInLimit.windowMinutes * MINUTE_MS,
    });
    const assets = registerAssets(app);
    const context: PortalContext = { ...services, sessions, assets, now };
    let lastPurge = 0;
    const purge = (): void => {
      const at = now();
      if (at.getTime() - lastPurge < PURGE_EVERY_MS) return;
      lastPurge = at.getTime();
      const before = new Date(at.getTime() - limit.windowMs);
      services.store
        .purge(at, before)
        .catch((error: unknown) => app.log.warn({ err: error }, "portal purge failed"));
    };
    registerEdge(app, context, purge);
    app.get("/", async (_request, reply) => reply.redirect("/portal/keys", 303));
    registerSignInRoutes(app, context, limit);
    registerKeyRoutes(app, context);
    registerUsageRoutes(app, context);
    registerLogRoutes(app, context);
    registerBillingRoutes(app, context);
  };
}
