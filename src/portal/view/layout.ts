import { html } from "./html.js";
import type { Html, HtmlValue } from "./html.js";
import type { PortalSession } from "../store/portal-store.js";

export const NAV = [
  { path: "/portal/keys", label: "API keys" },
  { path: "/portal/usage", label: "Usage" },
  { path: "/portal/logs", label: "Request logs" },
  { path: "/portal/billing", label: "Billing" },
] as const;

export interface PageShell {
  title: string;
  /** Absent on the signed-out pages (sign-in, errors before sign-in). */
  session?: PortalSession | null;
  active?: string;
  body: HtmlValue;
}

/** The asset URLs carry their content hash, so browsers may cache them for a year. */
export interface AssetUrls {
  css: string;
  js: string;
}

function header(shell: PageShell): Html {
  const user = shell.session?.user;
  if (!user || !shell.session) {
    return html`<header class="top">
      <div class="bar"><span class="brand">Situs</span></div>
    </header>`;
  }
  const links = NAV.map(
    (item) =>
      html`<li>
        <a href="${item.path}" ${item.path === shell.active ? html` aria-current="page"` : ""}
          >${item.label}</a
        >
      </li>`,
  );
  return html`<header class="top">
    <div class="bar">
      <a class="brand" href="/portal/keys">Situs</a>
      <span class="team" title="${user.email}">${user.teamName}</span>
      <form method="post" action="/portal/sign-out" class="sign-out">
        <input type="hidden" name="_csrf" value="${shell.session.csrfToken}" />
        <button type="submit" class="link">Sign out</button>
      </form>
    </div>
    <nav aria-label="Portal">
      <ul>
        ${links}
      </ul>
    </nav>
  </header>`;
}

export function page(shell: PageShell, assets: AssetUrls): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${shell.title} · Situs portal</title>
        <link rel="stylesheet" href="${assets.css}" />
        <script src="${assets.js}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        ${header(shell)}
        <main id="main" tabindex="-1">
          <h1>${shell.title}</h1>
          ${shell.body}
        </main>
        <footer class="foot">
          Times are UTC. Situs address parsing and parcel lookup: <a href="/docs">API reference</a>.
        </footer>
      </body>
    </html>`;
}

export function notice(kind: "error" | "success" | "info", message: HtmlValue): Html {
  const role = kind === "error" ? "alert" : "status";
  return html`<div class="notice ${kind}" role="${role}">${message}</div>`;
}

export function csrfField(session: PortalSession): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrfToken}" />`;
}
