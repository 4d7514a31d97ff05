import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { AccountAdmin, AdminError } from "./account-admin.js";
import type { Database } from "../../db/database.js";
import { queryRequestLogs, usageReport } from "./account-queries.js";

/**
 * The commands of `situs admin` over an accounts database, argv in, text out: run by the command
 * line on the database it opens, or by the service that holds the embedded database, for a
 * command line that reaches it through its admin socket (admin-socket.ts). The same commands give
 * the same output either way. Amounts are in currency units ("12.50").
 */
export const HELP = `Usage: situs admin <command>

  team create <name> [--credit <amount>]     create a team; prints its ID
  team list                                  teams with status, credit, budget, month spend
  team pause <team> | team resume <team>     stop or restart a team's API access
  credit add <team> <amount>                 add prepaid credit (negative to correct)
  budget set <team> <amount> | budget clear <team>
  key create <team> [--name <name>]          prints the new key once; only its hash is kept
  key list <team>                            prefix, name, created, last used, revoked
  key revoke <key>                           refused on every replica within a second
  user create <team> <email>                 portal user; password from SITUS_PASSWORD, else generated
  usage <team> [--month YYYY-MM]             billed requests and spend of a month (UTC)
  logs <team> [--status N] [--error CODE] [--request ID] [--since ISO] [--limit N]

  --json    listings (team list, key list, usage, logs) as JSON instead of text
`;

type Handler = (admin: AccountAdmin, db: Database, args: Args) => Promise<string>;

/** What a command prints and the exit code it ends with. */
export interface AdminResult {
  code: number;
  out: string;
  err: string;
}

/** What a command reads besides its arguments: the portal password (SITUS_PASSWORD) if set. */
export interface AdminContext {
  password?: string;
}

interface Args {
  positional: string[];
  context: AdminContext;
  flags: Map<string, string>;
  /** `--json`: listings as JSON. */
  json: boolean;
}

const HANDLERS: Record<string, Handler> = {
  "team create": async (admin, _db, args) =>
    admin.createTeam(need(args, 0, "name"), micros(args.flags.get("credit") ?? "0")),
  "team list": async (admin, _db, args) => listing(args, await admin.teams(), formatTeam),
  "team pause": (admin, _db, args) => ok(admin.setStatus(need(args, 0, "team"), "paused")),
  "team resume": (admin, _db, args) => ok(admin.setStatus(need(args, 0, "team"), "active")),
  "credit add": (admin, _db, args) =>
    ok(admin.addCredit(need(args, 0, "team"), micros(need(args, 1, "amount")))),
  "budget set": (admin, _db, args) =>
    ok(admin.setBudget(need(args, 0, "team"), micros(need(args, 1, "amount")))),
  "budget clear": (admin, _db, args) => ok(admin.setBudget(need(args, 0, "team"), null)),
  "key create": async (admin, _db, args) => {
    const key = await admin.createKey(need(args, 0, "team"), args.flags.get("name") ?? "default");
    return `${key.keyId}\n${key.secret}\n(the key is shown only now)`;
  },
  "key list": async (admin, _db, args) =>
    listing(args, await admin.listKeys(need(args, 0, "team")), formatKey),
  "key revoke": (admin, _db, args) => ok(admin.revokeKey(need(args, 0, "key"))),
  "user create": async (admin, _db, args) => {
    const given = args.context.password;
    const password = given ?? randomBytes(15).toString("base64url");
    const userId = await admin.createPortalUser(need(args, 0, "team"), need(args, 1, "email"), password);
    return given === undefined ? `${userId}\npassword: ${password}` : userId;
  },
  usage: async (admin, db, args) => {
    const teamId = need(args, 0, "team");
    const month = monthFlag(args);
    const report = await usageReport(db, teamId, month === undefined ? undefined : `${month}-01`);
    const team = await admin.team(teamId);
    if (args.json) return JSON.stringify({ ...report, month: report.month.slice(0, 7), team }, null, 2);
    const lines = report.byOperation.map(
      (row) =>
        `  ${row.operation.padEnd(14)} ${String(row.requests).padStart(10)}  ${money(row.spendMicros)}`,
    );
    return [`${teamId} ${report.month.slice(0, 7)}`, ...lines, formatTeam(team)].join("\n");
  },
  logs: async (_admin, db, args) => {
    const f = args.flags;
    const rows = await queryRequestLogs(db, need(args, 0, "team"), {
      ...(f.has("status") ? { status: integerFlag(args, "status", 100, 599) } : {}),
      ...(f.has("error") ? { errorCode: f.get("error")! } : {}),
      ...(f.has("request") ? { requestId: f.get("request")! } : {}),
      ...(f.has("since") ? { from: dateFlag(args, "since") } : {}),
      limit: f.has("limit") ? integerFlag(args, "limit", 1, 10_000) : 50,
    });
    return listing(args, rows, (r) =>
      [r.at.toISOString(), r.requestId, r.status, r.errorCode ?? "-", r.method, r.path].join("  "),
    );
  },
};

/** The options each command takes besides its words; `--json` is the listings'. */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  "team create": ["credit"],
  "team list": ["json"],
  "key create": ["name"],
  "key list": ["json"],
  usage: ["month", "json"],
  logs: ["status", "error", "request", "since", "limit", "json"],
};

/** The command `argv` names (`team create`, `usage`) and the arguments after its words. */
function commandOf(argv: readonly string[]): { name: string; rest: string[] } | undefined {
  const [first, second, ...rest] = argv;
  const twoWords = `${first} ${second}`;
  if (HANDLERS[twoWords]) return { name: twoWords, rest };
  if (first !== undefined && HANDLERS[first]) return { name: first, rest: argv.slice(1) };
  return undefined;
}

/** node:util's parseArgs reads `-5` as an option; a negative amount is a value. */
const NEGATIVE_NUMBER = /^-\d/;

/** The command's arguments, read by `parseArgs`: an option it does not take is an error. */
function readArgs(name: string, argv: readonly string[]): Omit<Args, "context"> {
  const allowed = COMMAND_OPTIONS[name] ?? [];
  const options = Object.fromEntries(
    allowed.map((flag) => [flag, { type: flag === "json" ? ("boolean" as const) : ("string" as const) }]),
  );
  const shielded = argv.map((arg) => (NEGATIVE_NUMBER.test(arg) ? ` ${arg}` : arg));
  const unshield = (value: string) => (value.startsWith(" -") ? value.slice(1) : value);
  const { values, positionals } = parseArgs({
    args: shielded,
    options,
    allowPositionals: true,
    strict: true,
  });
  const flags = new Map<string, string>();
  for (const [flag, value] of Object.entries(values))
    if (typeof value === "string") flags.set(flag, unshield(value));
  return { positional: positionals.map(unshield), flags, json: values.json === true };
}

/** True when `argv` names a command (`team create`, `usage`, …). */
export function isAdminCommand(argv: readonly string[]): boolean {
  return commandOf(argv) !== undefined;
}

/** Runs one admin command on `db`: its output, or its refusal (exit 1) or usage (exit 2). */
export async function runAdminCommand(
  db: Database,
  argv: readonly string[],
  context: AdminContext,
): Promise<AdminResult> {
  const command = commandOf(argv);
  if (!command) return { code: argv[0] === undefined || argv[0] === "--help" ? 0 : 2, out: "", err: HELP };
  let args: Omit<Args, "context">;
  try {
    args = readArgs(command.name, command.rest);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { code: 2, out: "", err: `situs admin ${command.name}: ${message}\n\n${HELP}` };
  }
  try {
    const output = await HANDLERS[command.name]!(new AccountAdmin(db), db, { ...args, context });
    return { code: 0, out: output === "" ? "" : `${output}\n`, err: "" };
  } catch (error) {
    if (!(error instanceof AdminError)) throw error;
    return { code: 1, out: "", err: `situs admin: ${error.message}\n` };
  }
}

/** Rows as text lines, or with `--json` as a JSON array. */
function listing<T>(args: Args, rows: readonly T[], format: (row: T) => string): string {
  return args.json ? JSON.stringify(rows, null, 2) : rows.map(format).join("\n");
}

/** `--month YYYY-MM`, a real month, or undefined (this month). */
function monthFlag(args: Args): string | undefined {
  const month = args.flags.get("month");
  if (month === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 12)
    throw new AdminError(`--month must be a month written YYYY-MM (2026-11), got "${month}"`);
  return month;
}

function integerFlag(args: Args, name: string, min: number, max: number): number {
  const raw = args.flags.get(name) ?? "";
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw new AdminError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

function dateFlag(args: Args, name: string): Date {
  const raw = args.flags.get(name) ?? "";
  const date = new Date(raw);
  if (raw === "" || Number.isNaN(date.getTime()))
    throw new AdminError(`--${name} must be an ISO date or time (2026-11-28T09:00:00Z), got "${raw}"`);
  return date;
}

function need(args: Args, index: number, what: string): string {
  const value = args.positional[index];
  if (value === undefined) throw new AdminError(`missing <${what}>`);
  return value;
}

/** "12.50" currency units to micro-units, exactly (no floating point). */
export function micros(amount: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(amount.trim());
  if (!match) throw new AdminError(`not an amount: ${amount}`);
  const value = Number(match[2]) * 1_000_000 + Number((match[3] ?? "").padEnd(6, "0"));
  return match[1] === "-" ? -value : value;
}

export function money(microUnits: number): string {
  const sign = microUnits < 0 ? "-" : "";
  const abs = Math.abs(microUnits);
  return `${sign}${Math.floor(abs / 1_000_000)}.${String(abs % 1_000_000).padStart(6, "0")}`;
}

/** A change that prints nothing of its own: "ok" once it is committed. */
async function ok(change: Promise<void>): Promise<string> {
  await change;
  return "ok";
}

function formatTeam(team: Awaited<ReturnType<AccountAdmin["team"]>>): string {
  const budget = team.budgetMicros === null ? "none" : money(team.budgetMicros);
  return `${team.teamId}  ${team.status}  credit ${money(team.creditMicros)}  budget ${budget}  month spend ${money(team.monthSpendMicros)}  ${team.name}`;
}

function formatKey(key: Awaited<ReturnType<AccountAdmin["listKeys"]>>[number]): string {
  const when = (date: Date | null) => (date === null ? "-" : date.toISOString());
  return `${key.keyId}  ${key.displayPrefix}…  ${key.name}  created ${when(key.createdAt)}  last used ${when(key.lastUsedAt)}  revoked ${when(key.revokedAt)}`;
}
