import { describeConfig } from "../config.js";
import { readFileSync } from "node:fs";
import { projectPath } from "../paths.js";
import { HELP as ADMIN_HELP, run as runAdmin } from "./admin.js";
import { start } from "../main.js";
import { parseCommand, USAGE as PARSE_USAGE } from "./parse-command.js";
import { run as runExport, USAGE as EXPORT_USAGE } from "./export-command.js";
import { run as runIngest, USAGE as INGEST_USAGE } from "./ingest-command.js";
import { run as runLookup, USAGE as LOOKUP_USAGE } from "./lookup-command.js";
import { run as runRemove, USAGE as REMOVE_USAGE } from "./remove.js";

/**
 * `bin/situs`: the command line. Each subcommand is a module with a `run(args)` function and its
 * usage text; this file dispatches, and answers `--help` (any command: its usage, nothing run)
 * and `--version` itself.
 */
interface Command {
  summary: string;
  usage: string;
  run(args: string[]): Promise<number | void>;
}

const SERVE_USAGE = `Usage: situs serve

Runs the HTTP API (what \`npm start\` does), configured by the environment:
${describeConfig()}
`;

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: "Run the HTTP API (what `npm start` does); configured by the environment.",
    usage: SERVE_USAGE,
    async run() {
      await start();
    },
  },
  parse: { ...parseCommand, usage: PARSE_USAGE },
  admin: {
    summary: "Manage teams, credit, budgets, API keys, portal users; show usage and logs.",
    usage: ADMIN_HELP,
    run: runAdmin,
  },
  ingest: {
    summary: "Build or update a parcel index from CSV, GeoJSON, shapefiles, GDAL data (--help for options).",
    usage: INGEST_USAGE,
    run: runIngest,
  },
  remove: { summary: "Drop counties from a parcel index (--fips F).", usage: REMOVE_USAGE, run: runRemove },
  export: {
    summary: "Write every parcel of an index, with its IDs, as CSV.",
    usage: EXPORT_USAGE,
    run: runExport,
  },
  lookup: {
    summary: "Look up many addresses (free text, CSV or JSON lines) against an index.",
    usage: LOOKUP_USAGE,
    run: runLookup,
  },
};

function usage(): string {
  const commands = Object.entries(COMMANDS)
    .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
    .join("\n");
  return `Usage: situs <command> [options]   (situs <command> --help: its options; situs --version)\n\nCommands:\n${commands}\n\nEnvironment:\n${describeConfig()}\n`;
}

/** The version of package.json. */
export function version(): string {
  return (JSON.parse(readFileSync(projectPath("package.json"), "utf8")) as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  // `situs export | head`: a reader that stops early is normal, not an error to report.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    process.stdout.write(`situs ${version()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`situs: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  // --help anywhere prints the command's usage and does nothing else.
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(command.usage);
    return 0;
  }
  const code = await command.run(args);
  return code ?? 0;
}
