import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hashPassword, verifyPassword } from "../../accounts/passwords.js";
import { html } from "../view/html.js";
import { notice } from "../view/layout.js";
import { formOf, safeNext, sendPage } from "../portal-context.js";
import type { PortalContext } from "../portal-context.js";
import type { PortalSession } from "../store/portal-store.js";
import { csrfMatches } from "../store/sessions.js";
import type { SignInLimit } from "../store/sign-in-limit.js";

interface SignInForm {
  session: PortalSession;
  email?: string;
  next: string;
  status: number;
  message?: string;
}

function renderSignIn(context: PortalContext, reply: FastifyReply, form: SignInForm): FastifyReply {
  return sendPage(context, reply, form.status, {
    title: "Sign in",
    body: html`<p class="lead">
        Manage your team's API keys, follow usage and request logs, and set your budget.
      </p>
      <div class="card narrow">
        ${form.message ? notice("error", form.message) : ""}
        <form method="post" action="/portal/sign-in" class="stack">
          <input type="hidden" name="_csrf" value="${form.session.csrfToken}" />
          <input type="hidden" name="next" value="${form.next}" />
          <label for="email">E-mail</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="username"
            required
            value="${form.email ?? ""}"
            ${form.email ? "" : html` autofocus`}
          />
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="current-password"
            required${form.email ? html` autofocus` : ""}
          />
          <button type="submit" class="primary">Sign in</button>
        </form>
      </div>`,
  });
}

/** A visitor's session for the form's CSRF token: the current one, or a new one. */
async function visitorSession(context: PortalContext, request: FastifyRequest, reply: FastifyReply) {
  return (await context.sessions.current(request)) ?? (await context.sessions.start(request, reply, null));
}

/** Password check that takes as long for an unknown e-mail as for a known one (no user enumeration). */
function passwordChecker(): (password: string, stored: string | undefined) => Promise<boolean> {
  let decoy: Promise<string> | undefined;
  return async (password, stored) => {
    if (stored !== undefined) return verifyPassword(password, stored);
    decoy ??= hashPassword("decoy password, never matches");
    await verifyPassword(password, await decoy);
    return false;
  };
}

export function registerSignInRoutes(app: FastifyInstance, context: PortalContext, limit: SignInLimit): void {
  const checkPassword = passwordChecker();

  app.get("/sign-in", async (request, reply) => {
    const session = await visitorSession(context, request, reply);
    const next = safeNext((request.query as Record<string, string | undefined>).next);
    if (session.user) return reply.redirect(next, 303);
    return renderSignIn(context, reply, { session, next, status: 200 });
  });

  app.post("/sign-in", async (request, reply) => {
    const form = formOf(request);
    const current = await context.sessions.current(request);
    const email = (form.get("email") ?? "").trim().slice(0, 320);
    const next = safeNext(form.get("next"));
    if (!csrfMatches(current, form.get("_csrf") ?? undefined)) {
      const session = current ?? (await context.sessions.start(request, reply, null));
      const message = "The sign-in form had expired. Please sign in again.";
      return renderSignIn(context, reply, { session, email, next, status: 403, message });
    }
    const session = current as PortalSession;
    const now = context.now();
    const attempt = await limit.attempt(email, request.client, now);
    if ("waitSeconds" in attempt) {
      reply.header("retry-after", String(attempt.waitSeconds));
      const minutes = Math.ceil(attempt.waitSeconds / 60);
      const message = `Too many failed sign-ins. Try again in ${minutes} minutes.`;
      return renderSignIn(context, reply, { session, email, next, status: 429, message });
    }
    const user = email === "" ? null : await context.accounts.findUser(email);
    const matches = await checkPassword(form.get("password") ?? "", user?.passwordHash);
    if (!matches || user === null) {
      const message = "The e-mail address or password is not right.";
      return renderSignIn(context, reply, { session, email, next, status: 401, message });
    }
    await limit.succeeded(attempt);
    // A new session on sign-in: a token planted before sign-in is worthless after it.
    await context.store.deleteSession(session.tokenHash);
    await context.sessions.start(request, reply, user.userId);
    return reply.redirect(next, 303);
  });

  app.post("/sign-out", async (request, reply) => {
    const session = await context.sessions.current(request);
    if (session && csrfMatches(session, formOf(request).get("_csrf") ?? undefined)) {
      await context.sessions.end(request, reply, session);
    }
    return reply.redirect("/portal/sign-in", 303);
  });
}
