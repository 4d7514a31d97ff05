import type { FastifyReply, FastifyRequest } from "fastify";
import type { Prices } from "../accounts/accounts.js";
import type { TeamAccounts } from "../accounts/team-accounts.js";
import { html } from "./view/html.js";
import { notice, page } from "./view/layout.js";
import type { AssetUrls, PageShell } from "./view/layout.js";
import type { PortalSession, PortalStore } from "./store/portal-store.js";
import { csrfMatches } from "./store/sessions.js";
import type { Sessions } from "./store/sessions.js";

/** What every portal route uses, built once when the portal is registered. */
export interface PortalContext {
  store: PortalStore;
  accounts: TeamAccounts;
  sessions: Sessions;
  currency: string;
  prices: Prices;
  assets: AssetUrls;
  now: () => Date;
}

export type SignedInSession = PortalSession & { user: NonNullable<PortalSession["user"]> };

export function sendPage(
  context: PortalContext,
  reply: FastifyReply,
  status: number,
  shell: PageShell,
): FastifyReply {
  return reply.code(status).type("text/html; charset=utf-8").send(page(shell, context.assets).text);
}

/** The signed-in session, or null once the visitor has been sent to the sign-in page. */
export async function requireUser(
  context: PortalContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SignedInSession | null> {
  const session = await context.sessions.current(request);
  if (session?.user) return session as SignedInSession;
  const next = request.method === "GET" ? `?next=${encodeURIComponent(request.url)}` : "";
  await reply.redirect(`/portal/sign-in${next}`, 303);
  return null;
}

/** The fields of a submitted form (application/x-www-form-urlencoded; the app reads bodies raw). */
export function formOf(request: FastifyRequest): URLSearchParams {
  const body = request.body;
  return new URLSearchParams(Buffer.isBuffer(body) ? body.toString("utf8") : "");
}

/**
 * A form post of a signed-in user whose CSRF token matches the session's (synchronizer token,
 * OWASP CSRF Cheat Sheet); otherwise the post changes nothing and answers 403.
 */
export async function requireForm(
  context: PortalContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ session: SignedInSession; form: URLSearchParams } | null> {
  const session = await requireUser(context, request, reply);
  if (session === null) return null;
  const form = formOf(request);
  if (!csrfMatches(session, form.get("_csrf") ?? undefined)) {
    sendPage(context, reply, 403, {
      title: "Form expired",
      session,
      body: html`${notice("error", "This form is no longer valid, so nothing was changed.")}
        <p>Go back, reload the page and try again.</p>`,
    });
    return null;
  }
  return { session, form };
}

/** Reads an `?next=` target, allowing only pages of the portal itself (no open redirect). */
export function safeNext(next: string | null | undefined): string {
  if (typeof next !== "string" || !/^\/portal\/[\w\-/?=&%.]*$/.test(next) || next.includes("//")) {
    return "/portal/keys";
  }
  return next;
}
