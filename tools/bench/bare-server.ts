/**
 * The baseline of `npm run bench:http`: a bare Fastify server that reads a JSON body and answers a
 * constant JSON object of about a parse answer's size. It is the practical limit of Node HTTP on
 * this machine; the service's figures are quoted as ratios to it.
 */
import Fastify from "fastify";

const ANSWER = {
  input: "1600 PENNSYLVANIA AVE NW, WASHINGTON DC 20500",
  type: "street",
  components: {
    addressNumber: "1600",
    streetName: "PENNSYLVANIA",
    streetSuffix: "AVE",
    postdirectional: "NW",
  },
  lines: ["1600 PENNSYLVANIA AVE NW", "WASHINGTON DC  20500"],
  warnings: [],
  confidence: 0.97,
  model: { name: "bare", version: "0.0.0", backend: "model" },
};

const app = Fastify({ logger: false });
app.post("/bare", async () => ANSWER);
app.get("/bare", async () => ANSWER);
await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
const address = app.server.address();
process.stdout.write(
  `listening at http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}\n`,
);
