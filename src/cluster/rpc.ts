/**
 * Request/response over a process's IPC channel (node:cluster workers and their primary).
 * A call is `{ rpc, id, method, args }`; its answer `{ rpcReply, id, ok, value | error }`.
 * Values cross as JSON (structured clone for `advanced` serialization is not needed: the
 * payloads are plain records; dates travel as ISO strings and are revived by the callee).
 */
export interface RpcCall {
  rpc: string;
  id: number;
  method: string;
  args: unknown[];
}

export interface RpcReply {
  rpcReply: string;
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

/** The sending end of an IPC channel: `process` in a worker, a `Worker` in the primary. */
export interface Channel {
  /** Queues a message; `callback` gets an error when it cannot be delivered (channel closed). */
  send(message: unknown, callback?: (error: Error | null) => void): boolean;
  on(event: "message", listener: (message: unknown) => void): unknown;
  off(event: "message", listener: (message: unknown) => void): unknown;
}

/** This process's channel to its parent (a cluster worker's to its primary). */
export function parentChannel(): Channel {
  const send = process.send?.bind(process);
  if (!send) throw new Error("this process has no IPC channel to a parent");
  return {
    send: (message, callback) => send(message, undefined, undefined, callback),
    on: (event, listener) => process.on(event, listener),
    off: (event, listener) => process.off(event, listener),
  };
}

export type Handlers = Record<string, (...args: never[]) => Promise<unknown> | unknown>;

function isCall(message: unknown, service: string): message is RpcCall {
  return typeof message === "object" && message !== null && (message as RpcCall).rpc === service;
}

function isReply(message: unknown, service: string): message is RpcReply {
  return typeof message === "object" && message !== null && (message as RpcReply).rpcReply === service;
}

/** Answers calls for `service` arriving on `channel` with `handlers`; returns a detach function. */
export function serveRpc(channel: Channel, service: string, handlers: Handlers): () => void {
  const listener = (message: unknown): void => {
    if (!isCall(message, service)) return;
    const handler = handlers[message.method];
    const reply = (answer: Omit<RpcReply, "rpcReply" | "id">) => {
      try {
        channel.send({ rpcReply: service, id: message.id, ...answer }, () => {});
      } catch {
        // The caller went away; its pending call fails on its side.
      }
    };
    if (!handler) return void reply({ ok: false, error: `unknown method ${message.method}` });
    Promise.resolve()
      .then(() => (handler as (...args: unknown[]) => unknown)(...message.args))
      .then(
        (value) => reply({ ok: true, value }),
        (error: unknown) =>
          reply({ ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
  };
  channel.on("message", listener);
  return () => channel.off("message", listener);
}

export class RpcTimeoutError extends Error {
  override name = "RpcTimeoutError";
}

/** Calls methods of `service` on the other end of `channel`; a call not answered in time rejects. */
export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout }
  >();
  private readonly listener = (message: unknown): void => {
    if (!isReply(message, this.service)) return;
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    clearTimeout(call.timer);
    if (message.ok) call.resolve(message.value);
    else call.reject(new Error(message.error ?? "remote call failed"));
  };

  constructor(
    private readonly channel: Channel,
    private readonly service: string,
    private readonly timeoutMs: number,
  ) {
    channel.on("message", this.listener);
  }

  call<T>(method: string, ...args: unknown[]): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcTimeoutError(`${this.service}.${method} not answered in ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      const failed = (): void => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        reject(new Error(`${this.service}.${method}: the channel is closed`));
      };
      try {
        // `false` only means a backlog: the message is still queued. Failures come to the callback.
        this.channel.send({ rpc: this.service, id, method, args } satisfies RpcCall, (error) => {
          if (error) failed();
        });
      } catch {
        failed();
      }
    });
  }

  /** Fails every call in flight (the other end went away) and stops listening. */
  close(reason = "closed"): void {
    this.channel.off("message", this.listener);
    for (const [id, call] of this.pending) {
      clearTimeout(call.timer);
      call.reject(new Error(`${this.service}: ${reason}`));
      this.pending.delete(id);
    }
  }
}
