import Fastify, { LogController } from "fastify";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";
import type { Socket } from "node:net";
import { portalPlugin } from "../portal/portal-plugin.js";
import { portalUnavailablePlugin } from "../portal/portal-unavailable.js";
import type { Services } from "./services.js";
import { accessLogHook } from "./access-log.js";
import { requestMetricsHook, type RequestMetrics } from "./request-metrics.js";
import { authenticationHook, requestIdOf } from "./authenticate.js";
import { clientKey, fromTrustedProxy, trustFunction } from "./client-address.js";
import type { TrustFunction, TrustProxy } from "./client-address.js";
import { errorHandler, notFoundHandler } from "./error-handler.js";
import { registerLoadShedding } from "./load-shedding.js";
import type { SheddingOptions } from "./load-shedding.js";
import { meteringHook, requestLogHook, settleReservation } from "./metering.js";
import "./request-context.js";
import type { Duplex } from "node:stream";
import { registerHealthRoutes } from "./routes/health.js";
import { registerLookupByIdRoutes } from "./routes/lookup-by-id.js";
import { registerLookupRoutes } from "./routes/lookup.js";
import { registerOpenApiRoute } from "./routes/openapi.js";
import { registerReferenceRoutes } from "./routes/reference.js";
import { registerParseRoutes } from "./routes/parse.js";

const CONNECT_NOT_FOUND =
  "HTTP/1.1 404 Not Found\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 10\r\nconnection: close\r\n\r\nNot Found\n";

export interface AppOptions {
  logger: FastifyBaseLogger;
  bodyLimit: number;
  /** The proxies whose forwarded client address and request ID are believed (client-address.ts). */
  trustProxy: TrustProxy;
  /** IPv6 clients are counted per network of this many bits (default 64). */
  clientIpv6Prefix?: number;
  /** Longest a whole request (headers and body) may take to arrive, then 408 (default 10 s). */
  requestTimeoutMs?: number;
  /** Longest a request's headers may take to arrive (default 5 s). */
  headersTimeoutMs?: number;
  /** Open connections per client address, trusted proxies excepted (default 256). */
  connectionsPerClient?: number;
  shedding?: SheddingOptions;
  https?: { cert: Buffer; key: Buffer };
  /** One access log line per this many requests (1: every request; 0: none). */
  accessLogEvery?: number;
  /** The API's address as clients reach it, named in the served OpenAPI document; absent: each request's. */
  publicUrl?: string;
  /** Where each answer is reported for metrics; absent: none. */
  metrics?: RequestMetrics;
}

export interface ServedRoute {
  method: string;
  url: string;
}

const servedRoutes = new WeakMap<FastifyInstance, ServedRoute[]>();

/** The routes an app serves (filled as they register; complete once the app is ready). */
export function listRoutes(app: FastifyInstance): readonly ServedRoute[] {
  return servedRoutes.get(app) ?? [];
}

/**
 * The HTTP application: the API routes behind authentication, metering and request logging;
 * the OpenAPI document and health and readiness (routes/health.ts); plain-text 404 for
 * everything else. No CORS: the API is for servers.
 */
export function buildApp(services: Services, options: AppOptions): FastifyInstance {
  const trust = trustFunction(options.trustProxy);
  const ipv6Prefix = options.clientIpv6Prefix ?? 64;
  const requestTimeout = options.requestTimeoutMs ?? 10_000;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 5_000, requestTimeout);
  // Node checks the two timeouts every connectionsCheckingInterval (30 s by default): often
  // enough that a request is cut within a quarter of its timeout past it.
  const serverOptions = {
    headersTimeout,
    connectionsCheckingInterval: Math.max(250, Math.min(headersTimeout, requestTimeout) / 4),
  };
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    ...(trust === false ? {} : { trustProxy: trust }),
    requestTimeout,
    http: serverOptions,
    exposeHeadRoutes: false,
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // Every request's ID is the req_ ID its answer carries, so each of its log lines names it.
    genReqId: (request) =>
      requestIdOf(request.headers, fromTrustedProxy(request.socket?.remoteAddress, trust)),
    clientErrorHandler: rejectMalformedHttp,
    ...(options.https ? { https: { ...options.https, ...serverOptions } } : {}),
  }) as unknown as FastifyInstance;
  limitConnectionsPerClient(app, options.connectionsPerClient ?? 256, trust, ipv6Prefix);

  const routes: ServedRoute[] = [];
  servedRoutes.set(app, routes);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  app.decorateRequest("situs", null);
  app.decorateRequest("errorCode", null);
  app.decorateRequest("client", {
    getter(this: FastifyRequest): string {
      return clientKey(this.ip, ipv6Prefix);
    },
  });
  if ((options.accessLogEvery ?? 1) > 0)
    app.addHook("onResponse", accessLogHook(options.accessLogEvery ?? 1));
  // Bodies are read raw and decoded by the routes after authentication, whatever the Content-Type.
  app.removeAllContentTypeParsers();
  // JSON is named as well as the catch-all: a named type is found in the parser's cache, where
  // the catch-all alone would parse every request's Content-Type header again.
  const raw = (_request: unknown, body: Buffer, done: (error: null, body: Buffer) => void): void =>
    done(null, body);
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, raw);
  app.addContentTypeParser("*", { parseAs: "buffer" }, raw);
  app.setErrorHandler(errorHandler(options.bodyLimit));
  app.setNotFoundHandler(notFoundHandler);
  // Node hands CONNECT to a `connect` listener, never to the routes, and closes the socket unanswered
  // without one: like any method a path does not have, it gets the plain-text 404.
  app.server.on("connect", (_request: unknown, socket: Duplex) => {
    socket.on("error", () => socket.destroy());
    socket.end(CONNECT_NOT_FOUND);
  });

  if (options.metrics) app.addHook("onResponse", requestMetricsHook(options.metrics));
  if (options.shedding) {
    const metrics = options.metrics;
    registerLoadShedding(
      app,
      metrics ? { ...options.shedding, onShed: () => metrics.shed() } : options.shedding,
    );
  }
  registerOpenApiRoute(app, options.publicUrl);
  registerReferenceRoutes(app);
  registerHealthRoutes(app, services);
  if (services.portal) void app.register(portalPlugin(services.portal), { prefix: "/portal" });
  else void app.register(portalUnavailablePlugin, { prefix: "/portal" });
  void app.register(async (api) => {
    api.addHook("onRequest", authenticationHook(services));
    api.addHook("onSend", meteringHook(services));
    api.addHook("onResponse", requestLogHook(services));
    // A request whose client went away before its answer gives its reserved credit back.
    api.addHook("onRequestAbort", (request, done) => {
      if (request.situs !== null) settleReservation(services, request.situs, false);
      done();
    });
    registerParseRoutes(api, services);
    registerLookupRoutes(api, services);
    registerLookupByIdRoutes(api, services);
  });
  return app;
}

/**
 * Requests Node's HTTP server cannot take get a JSON error, then the socket closes: one that did
 * not arrive within the request or headers timeout 408 `request_timeout`, one its parser cannot
 * read (unknown method, bad header) 400 `bad_request`.
 */
function rejectMalformedHttp(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
  const body = JSON.stringify(
    timedOut
      ? { error: "request_timeout", message: "The request did not arrive in time; send it whole, promptly." }
      : { error: "bad_request", message: "The HTTP request could not be read." },
  );
  answerAndClose(socket, timedOut ? "408 Request Timeout" : "400 Bad Request", body);
}

/**
 * A JSON answer written straight to a socket the server will not read from again, then closed; a
 * client that stopped reading does not hold it open behind the unsent answer for more than 1 s.
 */
function answerAndClose(socket: Socket, status: string, body: string, headers = ""): void {
  socket.on("error", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`,
  );
  socket.setTimeout(1000, () => socket.destroy());
}

const TOO_MANY_CONNECTIONS = JSON.stringify({
  error: "overloaded",
  message: "Too many open connections from this address; reuse fewer connections.",
});

/**
 * A cap on the connections one client address holds open (trusted proxies, which carry every
 * client's connections, excepted): past it a new connection is answered 503 `overloaded` at once
 * and closed, so no one client can hold the process's file descriptors.
 */
function limitConnectionsPerClient(
  app: FastifyInstance,
  cap: number,
  trust: TrustFunction | false,
  ipv6Prefix: number,
): void {
  const open = new Map<string, number>();
  app.server.on("connection", (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (peer === undefined || fromTrustedProxy(peer, trust)) return;
    const client = clientKey(peer, ipv6Prefix);
    const count = (open.get(client) ?? 0) + 1;
    if (count > cap) {
      answerAndClose(socket, "503 Service Unavailable", TOO_MANY_CONNECTIONS, "Retry-After: 1\r\n");
      return;
    }
    open.set(client, count);
    socket.once("close", () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
