import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";

/** One HTTP exchange, sent either in-process (inject) or over a real socket. */
export interface Exchange {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  json(): any;
}

export interface Transport {
  send(exchange: Exchange): Promise<Answer>;
  close(): Promise<void>;
}

function answer(status: number, headers: Record<string, unknown>, text: string): Answer {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name.toLowerCase()] = value === undefined ? undefined : String(value);
  return { status, headers: flat, text, json: () => JSON.parse(text) };
}

export function injectTransport(app: FastifyInstance): Transport {
  return {
    async send({ method, url, headers = {}, body }) {
      const response = await app.inject({
        method: method as "GET",
        url,
        headers,
        ...(body === undefined ? {} : { payload: body }),
      });
      return answer(response.statusCode, response.headers, response.body);
    },
    close: () => app.close(),
  };
}

export async function socketTransport(app: FastifyInstance): Promise<Transport & { port: number }> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as AddressInfo).port;
  return {
    port,
    send({ method, url, headers = {}, body }) {
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          { host: "127.0.0.1", port, method, path: url, headers, agent: false },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () =>
              resolve(answer(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString("utf8"))),
            );
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    },
    close: () => app.close(),
  };
}
