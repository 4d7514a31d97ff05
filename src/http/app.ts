import Fastify, { LogController } from "fastify";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Socket } from "node:net";
import { portalPlugin } from "../portal/portal-plugin.js";
import { portalUnavailablePlugin } from "../portal/portal-unavailable.js";
import type { Services } from "./services.js";
import { accessLogHook } from "./access-log.js";
import { requestMetricsHook, type RequestMetrics } from "./request-metrics.js";
import { authenticationHook, requestIdOf } from "./authenticate.js";
import { errorHandler, notFoundHandler } from "./error-handler.js";
import { registerLoadShedding } from "./load-shedding.js";
import type { SheddingOptions } from "./load-shedding.js";
import { meteringHook, requestLogHook } from "./metering.js";
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
  trustProxy: boolean;
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
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy,
    exposeHeadRoutes: false,
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // Every request's ID is the req_ ID its answer carries, so each of its log lines names it.
    genReqId: (request) => requestIdOf(request.headers, options.trustProxy),
    clientErrorHandler: rejectMalformedHttp,
    ...(options.https ? { https: options.https } : {}),
  }) as unknown as FastifyInstance;

  const routes: ServedRoute[] = [];
  servedRoutes.set(app, routes);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  app.decorateRequest("situs", null);
  app.decorateRequest("errorCode", null);
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
    registerParseRoutes(api, services);
    registerLookupRoutes(api, services);
    registerLookupByIdRoutes(api, services);
  });
  return app;
}

/** Requests Node's HTTP parser cannot read (unknown method, bad header) get a JSON 400, then the socket closes. */
function rejectMalformedHttp(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const body = JSON.stringify({ error: "bad_request", message: "The HTTP request could not be read." });
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  void error;
}
