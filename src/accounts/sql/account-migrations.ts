import type { Migration } from "../../db/migrate.js";

/**
 * The accounts schema, as numbered migrations run in order on both backends (PostgreSQL and
 * PGlite). A migration is never edited once shipped; changes are new entries. Money columns are
 * integer micro-units (`bigint`). docs/accounts.md explains each table.
 */
export const ACCOUNT_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "accounts",
    sql: `
      CREATE TABLE teams (
        id            text PRIMARY KEY,
        name          text NOT NULL,
        status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
        -- Prepaid credit granted in total; credit left = this minus all monthly_spend.
        credit_granted_micros bigint NOT NULL DEFAULT 0,
        budget_micros bigint CHECK (budget_micros IS NULL OR budget_micros >= 0),
        created_at    timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE portal_users (
        id            text PRIMARY KEY,
        team_id       text NOT NULL REFERENCES teams (id),
        email         text NOT NULL,
        password_hash text NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX portal_users_email ON portal_users (lower(email));
      CREATE TABLE api_keys (
        id             text PRIMARY KEY,
        team_id        text NOT NULL REFERENCES teams (id),
        name           text NOT NULL,
        display_prefix text NOT NULL,
        hash           text NOT NULL UNIQUE,
        created_at     timestamptz NOT NULL DEFAULT now(),
        last_used_at   timestamptz,
        revoked_at     timestamptz
      );
      CREATE INDEX api_keys_team ON api_keys (team_id);
      -- One row per billed request, keyed by request ID so a replay can never bill twice.
      -- voided rows are tombstones of answers withheld after an ambiguous write (docs/accounts.md).
      CREATE TABLE usage_records (
        request_id   text PRIMARY KEY,
        team_id      text NOT NULL,
        key_id       text NOT NULL,
        operation    text NOT NULL,
        price_micros bigint NOT NULL,
        at           timestamptz NOT NULL,
        voided       boolean NOT NULL DEFAULT false
      );
      CREATE INDEX usage_records_team_at ON usage_records (team_id, at);
      -- A team's spend of a month is the sum over shards: concurrent batches add to different
      -- shards, so they do not wait on one another's row lock (docs/accounts.md "Group commit").
      CREATE TABLE monthly_spend (
        team_id      text NOT NULL REFERENCES teams (id),
        month        date NOT NULL,
        shard        smallint NOT NULL,
        spend_micros bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (team_id, month, shard)
      );
      CREATE TABLE request_logs (
        request_id text PRIMARY KEY,
        team_id    text NOT NULL,
        key_id     text NOT NULL,
        method     text NOT NULL,
        path       text NOT NULL,
        status     integer NOT NULL,
        error_code text,
        latency_ms real NOT NULL,
        at         timestamptz NOT NULL
      );
      CREATE INDEX request_logs_team_at ON request_logs (team_id, at DESC);
      CREATE INDEX request_logs_at ON request_logs (at);
    `,
  },
  {
    version: 2,
    name: "usage spend trigger",
    // Month spend follows the usage rows inside the statement that inserts them, whichever way
    // they arrive (COPY or INSERT … ON CONFLICT DO NOTHING, whose transition table holds only
    // the rows really inserted). Tombstones (voided) add nothing. Each (team, month) of a
    // statement adds to a random shard, so concurrent batches rarely wait on one row lock;
    // groups are written in (team, month) order, so they cannot deadlock.
    sql: `
      CREATE FUNCTION usage_records_add_spend() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO monthly_spend (team_id, month, shard, spend_micros)
        SELECT team_id, (date_trunc('month', at AT TIME ZONE 'UTC'))::date, floor(random() * 16)::smallint,
               sum(price_micros)
          FROM inserted WHERE NOT voided
         GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (team_id, month, shard)
          DO UPDATE SET spend_micros = monthly_spend.spend_micros + excluded.spend_micros;
        RETURN NULL;
      END $$;
      CREATE TRIGGER usage_records_spend AFTER INSERT ON usage_records
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION usage_records_add_spend();
    `,
  },
  {
    version: 3,
    name: "billed requests logged in their usage rows",
    // A billed answer's request-log entry is stored in its usage row (method, path, latency; its
    // status is 200 and it has no error code), so a billed request writes one row, not two. The
    // request log is the union of both, the usage part limited to the retention period that the
    // service writes into request_log_settings (usage rows themselves are kept for billing).
    sql: `
      ALTER TABLE usage_records ADD COLUMN method text, ADD COLUMN path text, ADD COLUMN latency_ms real;
      CREATE TABLE request_log_settings (
        only_row       boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        retention_days integer NOT NULL
      );
      INSERT INTO request_log_settings (retention_days) VALUES (30);
      CREATE VIEW request_log_entries AS
        SELECT request_id, team_id, key_id, method, path, status, error_code, latency_ms, at FROM request_logs
        UNION ALL
        SELECT request_id, team_id, key_id, method, path, 200, NULL, latency_ms, at FROM usage_records
         WHERE method IS NOT NULL AND NOT voided
           AND at >= now() - make_interval(days => (SELECT retention_days FROM request_log_settings));
    `,
  },
  {
    version: 4,
    name: "credit leases",
    // Per team and holder (a serving process), the credit it has reserved and not yet billed
    // (accounts/credit-leases.ts); a row not renewed within the lease's time to live is ignored.
    sql: `
      CREATE TABLE credit_leases (
        team_id    text NOT NULL REFERENCES teams (id),
        holder     text NOT NULL,
        micros     bigint NOT NULL,
        renewed_at timestamptz NOT NULL,
        PRIMARY KEY (team_id, holder)
      );
    `,
  },
  // The portal's tables (versions 20 and up) live with the portal (app/service-migrations.ts joins them).
];
