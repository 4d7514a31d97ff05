import type { IncomingHttpHeaders } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Authentication } from "../accounts/accounts.js";
import type { LeaseRefusal, Reservation } from "../accounts/credit-leases.js";
import { bearerToken, hashApiKey } from "../accounts/api-keys.js";
import { ApiError } from "../errors.js";
import { newRequestId } from "../ids.js";
import type { Services } from "./services.js";
import { ServerTiming } from "../runtime/timing.js";
import { continueSafely } from "./continue-safely.js";
import "./request-context.js";

/**
 * The first checks of every API request, in SPEC.md's order ("Order of checks"): the key
 * (401, 429, 503 `unavailable`), then the team's standing (403 before 402). They run before the
 * body is read, so a paused team gets 403 even for a malformed body.
 */

const REQUEST_ID_HEADER = "x-situs-request-id";
const REQUEST_ID_FORMAT = /^req_[0-9A-Za-z]{26}$/;

/**
 * The request's ID (Fastify's `genReqId`, so every log line of the request carries it). Behind a
 * trusted balancer it comes from the balancer, so a request it retries on another replica keeps
 * its ID and its usage row (keyed by request ID) cannot be written twice.
 */
export function requestIdOf(headers: IncomingHttpHeaders, trustRequestIdHeader: boolean): string {
  const given = trustRequestIdHeader ? headers[REQUEST_ID_HEADER] : undefined;
  return typeof given === "string" && REQUEST_ID_FORMAT.test(given) ? given : newRequestId();
}

/**
 * A callback hook rather than an async one: a key whose verdict is cached (nearly every request)
 * is checked and passed on synchronously, without a promise and a turn of the microtask queue.
 */
export function authenticationHook(services: Services) {
  return function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ): void {
    const timing = new ServerTiming();
    const header = request.headers.authorization;
    const secret = bearerToken(header);
    const known = secret === null ? undefined : services.accounts.peek?.(secret);
    if (known) {
      admit(services, request, reply, timing, secret!, known, done);
      return;
    }
    // A client over the unknown-key limit is refused before its key is looked up: its guessing
    // costs no database read until its minute ends. A key this process knows valid is served
    // (above), and one it knew valid when it last read it is checked as usual, so a client behind
    // the same address as a guesser keeps working.
    const recognized =
      known === undefined && secret !== null && services.accounts.recognizes?.(secret) === true;
    const limiter = services.keyGuesses;
    if (!recognized && limiter.blocking && limiter.blocked(request.client)) {
      done(rateLimited());
      return;
    }
    if (secret === null) {
      // A header with something in it is a presented key, malformed or not: it counts as a guess.
      if (header !== undefined && header.trim() !== "") refuse(services, request, header, done);
      else done(new ApiError("invalid_api_key", "Send the header Authorization: Bearer <API key>."));
      return;
    }
    if (known === null) {
      refuse(services, request, secret, done);
      return;
    }
    (recognized ? checkKey(services, secret) : screenThenCheck(services, request, secret)).then(
      (auth) => continueSafely(request, () => admit(services, request, reply, timing, secret, auth, done)),
      (error: Error) => continueSafely(request, () => done(error)),
    );
  };
}

/**
 * A key not in this process's cache: what the replicas share is asked first (a blocked client,
 * a key some replica just found unrecognized: no database read), then the database. A shared
 * store that cannot answer is skipped: the key is read from the database as without one.
 */
async function screenThenCheck(
  services: Services,
  request: FastifyRequest,
  secret: string,
): Promise<Authentication | null> {
  const screen = services.keyGuesses.screen;
  if (screen !== undefined) {
    let verdict = "check";
    try {
      verdict = await screen.call(services.keyGuesses, request.client, hashApiKey(secret));
    } catch (error) {
      request.log.warn({ err: error }, "key-guess limiter unavailable");
    }
    if (verdict === "blocked") throw rateLimited();
    if (verdict === "unrecognized") return null;
  }
  return checkKey(services, secret);
}

function rateLimited(): ApiError {
  return new ApiError(
    "rate_limited",
    "Too many different unrecognized API keys from this address; retry in a minute with a valid key.",
  );
}

/** The request's context and the team's standing, in SPEC.md's order (403 before 402). */
function admit(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  timing: ServerTiming,
  secret: string,
  auth: Authentication | null,
  done: (error?: Error) => void,
): void {
  if (auth === null) {
    refuse(services, request, secret, done);
    return;
  }
  const requestId = request.id;
  // A generated ID is a fresh ULID: equal to the header only when the header was taken.
  const givenId = request.headers[REQUEST_ID_HEADER] === requestId;
  request.situs = {
    requestId,
    givenId,
    key: auth.key,
    timing,
    errorCode: null,
    loggedWithUsage: false,
    reservedMicros: 0,
  };
  reply.header("x-request-id", requestId);
  const { team } = auth;
  if (team.status === "paused") {
    done(new ApiError("team_paused", "The service has paused this team's API access; contact support."));
  } else if (team.creditMicros <= 0) {
    done(spendRefusal("insufficient_credit"));
  } else if (team.budgetMicros !== null && team.monthSpendMicros >= team.budgetMicros) {
    done(spendRefusal("budget_exceeded"));
  } else reserveCredit(services, request, team.teamId, done);
}

function spendRefusal(code: LeaseRefusal): ApiError {
  return code === "insufficient_credit"
    ? new ApiError("insufficient_credit", "The team's credit balance is used up; add credit in the portal.")
    : new ApiError("budget_exceeded", "The team has reached its monthly budget; raise it in the portal.");
}

/**
 * The price of the request, taken from the credit this process holds for the team
 * (accounts/credit-leases.ts): at once while the lease lasts, else once the database has granted
 * more, or 402 when the team has nothing left that no other process holds.
 */
function reserveCredit(
  services: Services,
  request: FastifyRequest,
  teamId: string,
  done: (error?: Error) => void,
): void {
  const leases = services.leases;
  const operation = request.routeOptions.config.operation;
  if (leases === undefined || operation === undefined) {
    done();
    return;
  }
  const price = services.prices[operation];
  const context = request.situs!;
  const answer = (reservation: Reservation): void => {
    if (reservation !== "reserved") {
      done(spendRefusal(reservation));
      return;
    }
    context.reservedMicros = price;
    done();
  };
  const taken = leases.take(teamId, price);
  if (taken !== undefined) {
    answer(taken);
    return;
  }
  leases.reserve(teamId, price).then(
    (reservation) => continueSafely(request, () => answer(reservation)),
    (error: Error) =>
      continueSafely(request, () => {
        request.log.warn({ err: error }, "credit lease not granted");
        done(new ApiError("unavailable", "The team's credit could not be checked; retry with backoff."));
      }),
  );
}

/** The verdict of a key not in the cache, read within KEY_CHECK_TIMEOUT_MS or 503 `unavailable`. */
async function checkKey(services: Services, secret: string): Promise<Authentication | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("key check timed out")), services.keyCheckTimeoutMs);
  });
  try {
    return await Promise.race([services.accounts.authenticate(secret), timeout]);
  } catch {
    throw new ApiError("unavailable", "The API key could not be checked; retry with backoff.");
  } finally {
    clearTimeout(timer);
  }
}

/** 401 or 429 for a key not recognized, once the limiter has counted it. */
function refuse(
  services: Services,
  request: FastifyRequest,
  presented: string,
  done: (error: Error) => void,
): void {
  refuseUnrecognized(services, request, presented).catch((error: Error) =>
    continueSafely(request, () => done(error)),
  );
}

async function refuseUnrecognized(
  services: Services,
  request: FastifyRequest,
  presented: string,
): Promise<never> {
  let limited = false;
  try {
    limited = await services.keyGuesses.noteUnrecognized(request.client, hashApiKey(presented));
  } catch (error) {
    // Failing open keeps valid callers served while the shared counter is down; the answer is still 401.
    request.log.warn({ err: error }, "key-guess limiter unavailable");
  }
  if (limited) throw rateLimited();
  throw new ApiError("invalid_api_key", "The API key is unknown or revoked.");
}
