import type { ErrorCode } from "../errors.js";
import type { TeamStanding } from "./accounts.js";

/**
 * Credit leases: how many replicas answer one team without spending past its balance or budget
 * by more than a request or two, whatever the concurrency.
 *
 * Each process answering requests (a replica, or a worker) is a *holder*. It answers a team's
 * request only against credit it holds a lease on: the database records, per team and holder,
 * the micro-units the holder has reserved and not yet billed (`credit_leases.micros`), and a
 * holder is granted more only while the team's credit left (and budget left) exceeds what every
 * holder has reserved. Taking a request's price from a lease is a map lookup on the answering
 * thread; the database is asked when a lease runs out, for a grant that grows with the team's
 * traffic (up to MAX_GRANT_REQUESTS requests' worth) and never exceeds half of what is left, so
 * the other holders find some too. Near zero the grants shrink to one request: the request that
 * crosses zero is the only one past it, on every backend and at any concurrency.
 *
 * What a holder reserved and did not use goes back to the team after IDLE_RETURN_MS without
 * requests; a holder that dies without returning its lease holds it LEASE_TTL_MS at most.
 */
export interface LeaseSource {
  /**
   * Reserves up to `wantMicros` more for `holder` (at least `minMicros` while the team has
   * anything left) beside the `outstandingMicros` it holds, atomically per team; returns how much
   * was granted, or the refusal when nothing was left.
   */
  acquire(request: LeaseRequest): Promise<LeaseGrant>;
  /** Records that `holder` holds `outstandingMicros` for the team now (0: none, the row goes). */
  settle(teamId: string, holder: string, outstandingMicros: number): Promise<void>;
}

export interface LeaseRequest {
  teamId: string;
  holder: string;
  outstandingMicros: number;
  wantMicros: number;
  minMicros: number;
}

export type LeaseGrant =
  { grantedMicros: number; refusal?: undefined } | { grantedMicros: 0; refusal: LeaseRefusal };

export type LeaseRefusal = Extract<ErrorCode, "insufficient_credit" | "budget_exceeded">;

/**
 * What a lease source grants a holder: what is left of the team's credit and budget beside every
 * holder's reservation (`othersMicros` and the holder's own), half of it at most so other holders
 * find some, at least one request (`minMicros`) while anything is left.
 */
export function grantFrom(
  team: Pick<TeamStanding, "creditMicros" | "budgetMicros" | "monthSpendMicros">,
  othersMicros: number,
  request: LeaseRequest,
): LeaseGrant {
  const reserved = othersMicros + request.outstandingMicros;
  const creditLeft = team.creditMicros - reserved;
  const budgetLeft =
    team.budgetMicros === null ? Infinity : team.budgetMicros - team.monthSpendMicros - reserved;
  const left = Math.min(creditLeft, budgetLeft);
  if (left <= 0)
    return { grantedMicros: 0, refusal: creditLeft <= 0 ? "insufficient_credit" : "budget_exceeded" };
  return { grantedMicros: Math.max(request.minMicros, Math.min(request.wantMicros, Math.floor(left / 2))) };
}

/** A lease is kept by the database this long after its holder last wrote it. */
export const LEASE_TTL_MS = 10_000;
/** Holders rewrite their leases this often (and return unused credit). */
const RENEW_EVERY_MS = 2_500;
/** Credit reserved and unused this long goes back to the team. */
const IDLE_RETURN_MS = 2_000;
/**
 * Near zero (the last grant was cut short by what was left), a holder writes what it holds this
 * soon after it changes, and returns credit unused this long: the others then see the credit
 * left, not a reservation already billed or no longer used.
 */
const SCARCE_SETTLE_MS = 50;
const SCARCE_IDLE_RETURN_MS = 250;
/** A refusal from the database is reused this long before it is asked again. */
const REFUSAL_TTL_MS = 100;
const FIRST_GRANT_REQUESTS = 16;
const MAX_GRANT_REQUESTS = 4096;

class TeamLease {
  /** Micro-units this holder may still answer with. */
  remaining = 0;
  /** Reserved in the database and not yet billed: remaining + taken and not yet billed or given back. */
  outstanding = 0;
  lastGrant = 0;
  lastTakeAt = 0;
  /** The last grant was less than asked for, or refused: the team is near its limit. */
  scarce = false;
  settleTimer: NodeJS.Timeout | null = null;
  refusal: LeaseRefusal | null = null;
  refusedAt = 0;
  /** The grant or write running for this team; one at a time, so writes land in order. */
  acquiring: Promise<void> | null = null;
}

export type Reservation = "reserved" | LeaseRefusal;

export class CreditLeases {
  private readonly teams = new Map<string, TeamLease>();
  private readonly timer: NodeJS.Timeout;
  private settling: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly source: LeaseSource,
    private readonly holder: string,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    this.timer.unref();
  }

  /**
   * Takes `price` from the team's lease at once when it holds enough: "reserved"; a refusal
   * the database gave moments ago; or undefined when the lease must grow first (`reserve`).
   */
  take(teamId: string, price: number): Reservation | undefined {
    const lease = this.teams.get(teamId);
    if (lease === undefined) return undefined;
    const now = this.now();
    if (lease.remaining >= price) {
      lease.remaining -= price;
      lease.lastTakeAt = now;
      return "reserved";
    }
    if (lease.refusal !== null && now - lease.refusedAt < REFUSAL_TTL_MS) return lease.refusal;
    return undefined;
  }

  /** Takes `price`, asking the database for more when the lease runs short. */
  async reserve(teamId: string, price: number): Promise<Reservation> {
    for (;;) {
      const taken = this.take(teamId, price);
      if (taken !== undefined) return taken;
      await this.grow(teamId, price);
    }
  }

  /** A reserved request that was not billed: its price goes back into the lease. */
  release(teamId: string, price: number): void {
    const lease = this.teams.get(teamId);
    if (lease === undefined) return;
    lease.remaining += price;
    if (lease.scarce) this.settleSoon(teamId, lease);
  }

  /** A reserved request's usage row is durable: it is spend now, no longer reserved. */
  billed(teamId: string, price: number): void {
    const lease = this.teams.get(teamId);
    if (lease === undefined) return;
    lease.outstanding = Math.max(0, lease.outstanding - price);
    if (lease.scarce) this.settleSoon(teamId, lease);
  }

  private grow(teamId: string, price: number): Promise<void> {
    let lease = this.teams.get(teamId);
    if (lease === undefined) this.teams.set(teamId, (lease = new TeamLease()));
    if (lease.acquiring !== null) return lease.acquiring;
    const current = lease;
    const want = Math.min(
      Math.max(current.lastGrant * 2, price * FIRST_GRANT_REQUESTS),
      price * MAX_GRANT_REQUESTS,
    );
    const request = {
      teamId,
      holder: this.holder,
      outstandingMicros: current.outstanding,
      wantMicros: want,
      minMicros: price,
    };
    current.acquiring = this.source
      .acquire(request)
      .then((grant) => {
        current.scarce = grant.refusal !== undefined || grant.grantedMicros < want;
        if (grant.refusal !== undefined) {
          current.refusal = grant.refusal;
          current.refusedAt = this.now();
          return;
        }
        current.refusal = null;
        current.remaining += grant.grantedMicros;
        current.outstanding += grant.grantedMicros;
        current.lastGrant = grant.grantedMicros;
      })
      .finally(() => (current.acquiring = null));
    return current.acquiring;
  }

  private settleSoon(teamId: string, lease: TeamLease): void {
    if (lease.settleTimer !== null || this.closed) return;
    lease.settleTimer = setTimeout(() => {
      lease.settleTimer = null;
      this.settling = this.settling.then(() => this.settle(teamId, lease, SCARCE_IDLE_RETURN_MS));
    }, SCARCE_SETTLE_MS);
    lease.settleTimer.unref();
  }

  /**
   * Keeps every lease alive and gives back what sat unused: each holder's row is rewritten with
   * what it holds now, and deleted once it holds nothing.
   */
  private renew(): Promise<void> {
    this.settling = this.settling.then(async () => {
      for (const [teamId, lease] of this.teams)
        await this.settle(teamId, lease, lease.scarce ? SCARCE_IDLE_RETURN_MS : IDLE_RETURN_MS);
    });
    return this.settling;
  }

  /** Writes what the holder holds for the team, after returning credit unused for `idleMs`. */
  private async settle(teamId: string, lease: TeamLease, idleMs: number): Promise<void> {
    while (lease.acquiring !== null) await lease.acquiring.catch(() => {});
    const idle = this.now() - lease.lastTakeAt >= idleMs;
    if (lease.remaining > 0 && idle) {
      lease.outstanding = Math.max(0, lease.outstanding - lease.remaining);
      lease.remaining = 0;
      lease.lastGrant = 0;
    }
    // In the acquiring slot, so no grant's write for this team can land before this one.
    const written = this.source.settle(teamId, this.holder, lease.outstanding).then(
      () => true,
      () => false, // the next renewal writes it; until then the lease expires at worst
    );
    lease.acquiring = written.then(() => {});
    const ok = await written;
    lease.acquiring = null;
    if (ok && idle && lease.outstanding === 0 && lease.remaining === 0 && this.teams.get(teamId) === lease)
      this.teams.delete(teamId);
  }

  /** Gives every lease back (after the last answers were billed). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.settling;
    for (const lease of this.teams.values()) if (lease.settleTimer !== null) clearTimeout(lease.settleTimer);
    await Promise.all(
      [...this.teams.keys()].map((teamId) => this.source.settle(teamId, this.holder, 0).catch(() => {})),
    );
    this.teams.clear();
  }
}
