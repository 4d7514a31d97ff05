import { describeConfig } from "../config.js";
import { run as runAdmin } from "./admin.js";
import { start } from "../main.js";
import { parseCommand } from "./parse-command.js";
import { run as runExport } from "./export-command.js";
import { run as runIngest } from "./ingest-command.js";
import { run as runLookup } from "./lookup-command.js";
import { run as runRemove } from "./remove.js";

/**
 * `bin/situs`: the command line. Each subcommand is a module with a `run(args)` function;
 * this file only dispatches.
 */
interface Command {
  summary: string;
  run(args: string[]): Promise<number | void>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: "Run the HTTP API (what `npm start` does); configured by the environment.",
    async run() {
      await start();
    },
  },
  parse: parseCommand,
  admin: {
    summary: "Manage teams, credit, budgets, API keys, portal users; show usage and logs.",
    run: runAdmin,
  },
  ingest: {
    summary: "Build or update a parcel index from CSV, GeoJSON, shapefiles, GDAL data (--help for options).",
    run: runIngest,
  },
  remove: { summary: "Drop counties from a parcel index (--fips F).", run: runRemove },
  export: { summary: "Write every parcel of an index, with its IDs, as CSV.", run: runExport },
  lookup: {
    summary: "Look up many addresses (free text, CSV or JSON lines) against an index.",
    run: runLookup,
  },
};

function usage(): string {
  const commands = Object.entries(COMMANDS)
    .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
    .join("\n");
  return `Usage: situs <command> [options]\n\nCommands:\n${commands}\n\nEnvironment:\n${describeConfig()}\n`;
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
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`situs: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  const code = await command.run(args);
  return code ?? 0;
}
