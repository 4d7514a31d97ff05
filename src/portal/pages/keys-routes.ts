import type { FastifyInstance, FastifyReply } from "fastify";
import { dataTable } from "../view/data-table.js";
import type { Column } from "../view/data-table.js";
import { formatTime } from "../view/format.js";
import { html } from "../view/html.js";
import type { Html } from "../view/html.js";
import { csrfField, notice } from "../view/layout.js";
import { requireForm, requireUser, sendPage } from "../portal-context.js";
import type { PortalContext, SignedInSession } from "../portal-context.js";
import type { TeamKey } from "../../accounts/team-accounts.js";

const NAME_MAX = 64;

function keyRow(key: TeamKey, session: SignedInSession): Html {
  const status = key.revokedAt
    ? html`<span class="badge muted">Revoked ${formatTime(key.revokedAt)}</span>`
    : html`<span class="badge ok">Active</span>`;
  const action = key.revokedAt
    ? ""
    : html`<form
        method="post"
        action="/portal/keys/${key.keyId}/revoke"
        data-confirm="Revoke the key “${key.name}”? Requests using it will get 401 at once."
      >
        ${csrfField(session)}<button type="submit" class="danger small">
          Revoke<span class="sr-only"> ${key.name}</span>
        </button>
      </form>`;
  return html`<tr${key.revokedAt ? html` class="revoked"` : ""}>
  <th scope="row">${key.name}</th>
  <td><code>${key.displayPrefix}…</code></td>
  <td>${formatTime(key.createdAt)}</td>
  <td>${key.lastUsedAt ? formatTime(key.lastUsedAt) : html`<span class="muted">Never</span>`}</td>
  <td>${status}</td>
  <td>${action}</td>
</tr>`;
}

function createdPanel(name: string, secret: string, baseUrl: string): Html {
  return html`<section class="card created" aria-labelledby="new-key-title">
    <h2 id="new-key-title">Key “${name}” created</h2>
    <p>
      <strong>Copy it now: it is shown only this once.</strong> Only its hash is stored, so it cannot be shown
      again; if it is lost, create another and revoke this one.
    </p>
    <div class="copy-row">
      <label for="new-key" class="sr-only">New API key</label>
      <input id="new-key" class="secret" readonly value="${secret}" spellcheck="false" />
      <button type="button" class="primary" data-copy="new-key">Copy</button>
    </div>
    <p class="copy-status" role="status" aria-live="polite"></p>
    <p>Use it in the <code>Authorization</code> header:</p>
    <pre><code>curl -X POST ${baseUrl}/v1/verify/parse \\
  -H "Authorization: Bearer ${secret}" \\
  -d '{"line":"123 Main St, Springfield IL 62701"}'</code></pre>
  </section>`;
}

async function renderKeys(
  context: PortalContext,
  reply: FastifyReply,
  session: SignedInSession,
  extra: { status?: number; top?: Html; name?: string } = {},
): Promise<FastifyReply> {
  const keys = await context.accounts.listKeys(session.user.teamId);
  const active = keys.filter((key) => !key.revokedAt).length;
  return sendPage(context, reply, extra.status ?? 200, {
    title: "API keys",
    session,
    active: "/portal/keys",
    body: html`${extra.top ?? ""}
      <section class="card" aria-labelledby="create-title">
        <h2 id="create-title">Create a key</h2>
        <form method="post" action="/portal/keys" class="inline-form">
          ${csrfField(session)}
          <label for="key-name">Name</label>
          <input
            id="key-name"
            name="name"
            required
            maxlength="${NAME_MAX}"
            placeholder="e.g. production server"
            value="${extra.name ?? ""}"
            aria-describedby="key-name-help"
          />
          <button type="submit" class="primary">Create key</button>
        </form>
        <p id="key-name-help" class="help">
          A name says where the key is used. The key itself is shown once, right after creation.
        </p>
      </section>
      <section aria-labelledby="list-title">
        <h2 id="list-title">Keys <span class="muted">(${active} active)</span></h2>
        ${dataTable({
          columns: ["Name", "Key", "Created", "Last used", "Status"]
            .map((label): Column => ({ label }))
            .concat({ label: html`<span class="sr-only">Actions</span>` }),
          rows: keys.map((key) => keyRow(key, session)),
          empty: "No keys yet. Create one above.",
        })}
      </section>`,
  });
}

export function registerKeyRoutes(app: FastifyInstance, context: PortalContext): void {
  app.get("/keys", async (request, reply) => {
    const session = await requireUser(context, request, reply);
    const revoked = (request.query as Record<string, string | undefined>).revoked === "1";
    const top = revoked ? notice("success", "Key revoked. Requests using it now get 401.") : undefined;
    if (session) await renderKeys(context, reply, session, top ? { top } : {});
    return reply;
  });

  app.post("/keys", async (request, reply) => {
    const posted = await requireForm(context, request, reply);
    if (!posted) return reply;
    const name = (posted.form.get("name") ?? "").trim();
    if (name === "" || name.length > NAME_MAX) {
      const top = notice("error", `Give the key a name of 1 to ${NAME_MAX} characters.`);
      return renderKeys(context, reply, posted.session, { status: 422, top, name });
    }
    const created = await context.accounts.createKey(posted.session.user.teamId, name);
    // The secret is in this answer only: never cached, never stored.
    reply.header("cache-control", "no-store");
    return renderKeys(context, reply, posted.session, {
      status: 201,
      top: createdPanel(name, created.secret, `${request.protocol}://${request.host}`),
    });
  });

  app.post("/keys/:keyId/revoke", async (request, reply) => {
    const posted = await requireForm(context, request, reply);
    if (!posted) return reply;
    const { keyId } = request.params as { keyId: string };
    const revoked = await context.accounts.revokeKey(posted.session.user.teamId, keyId);
    if (!revoked) {
      // Another team's key answers exactly like a key that does not exist.
      return renderKeys(context, reply, posted.session, {
        status: 404,
        top: notice("error", "There is no such key in this team."),
      });
    }
    return reply.redirect("/portal/keys?revoked=1", 303);
  });
}
