import type { ApiKeyIdentity, Operation } from "../accounts/accounts.js";
import type { ServerTiming } from "../runtime/timing.js";

/** What the edge knows of a request made with a valid key. */
export interface RequestContext {
  requestId: string;
  /** The ID came from a trusted balancer (X-Situs-Request-Id), not from this service. */
  givenId: boolean;
  key: ApiKeyIdentity;
  timing: ServerTiming;
  /** The `error` code of the answer, once an error was sent. */
  errorCode: string | null;
  /** The answer's log entry went into its durable usage row. */
  loggedWithUsage: boolean;
  /** The price taken from the team's credit lease for this request, until billed or given back (0: none). */
  reservedMicros: number;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authentication hook once the key is recognized; null before and otherwise. */
    situs: RequestContext | null;
    /** The `error` code of the answer, for any request that got one (the access log reads it). */
    errorCode: string | null;
    /** The client the abuse limits count: its IPv4 address or IPv6 network (client-address.ts). */
    readonly client: string;
  }
  interface FastifyContextConfig {
    /** The billed operation a route performs. */
    operation?: Operation;
  }
}
