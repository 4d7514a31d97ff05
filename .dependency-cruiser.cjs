/**
 * The house's floors (docs/architecture.md "Floors"): every import runs downward and there are no
 * circles. `npm run lint` runs this check.
 *
 *   app, cli, main, config, services      wiring and entry points
 *   http, portal, cluster                 the edges
 *   accounts                              keys, teams, ledgers, request log
 *   parcels                               the parcel index
 *   parse                                 the parser
 *   places, db                            the gazetteer; database drivers
 *   usps, runtime, csv, errors, ids, paths
 */
const floor = (...paths) => `^src/(${paths.join("|")})`;
const ENTRY = ["app/", "cli/", "main\\.ts", "config\\.ts", "services\\.ts"];
const EDGES = ["http/", "portal/", "cluster/"];
const upward = (name, from, to) => ({ name, severity: "error", from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", from: {}, to: { circular: true } },
    upward("edges-below-entry", floor(...EDGES), floor(...ENTRY)),
    upward("accounts-below-edges", floor("accounts/"), floor(...ENTRY, ...EDGES)),
    upward("parcels-below-accounts", floor("parcels/"), floor(...ENTRY, ...EDGES, "accounts/")),
    upward("parse-below-parcels", floor("parse/"), floor(...ENTRY, ...EDGES, "accounts/", "parcels/")),
    // The portal reads and changes accounts through the interface accounts exports for it.
    {
      name: "portal-through-team-accounts",
      severity: "error",
      from: { path: "^src/portal/" },
      to: { path: "^src/accounts/", pathNot: "^src/accounts/(accounts|team-accounts|passwords)\\.ts$" },
    },
    // The index reports its phases; the HTTP edge turns them into Server-Timing (index-phases.ts).
    upward("parcels-without-server-timing", floor("parcels/"), floor("runtime/timing\\.ts")),
    upward(
      "places-and-db-below-features",
      floor("places/", "db/"),
      floor(...ENTRY, ...EDGES, "accounts/", "parcels/", "parse/"),
    ),
    upward(
      "basics-at-the-bottom",
      floor("usps/", "runtime/", "csv\\.ts", "errors\\.ts", "ids\\.ts", "paths\\.ts"),
      floor(...ENTRY, ...EDGES, "accounts/", "parcels/", "parse/", "places/", "db/"),
    ),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
  },
};
