import { contractSuite } from "./contract.js";
import { testApp } from "../support/test-app.js";
import { injectTransport } from "../support/transport.js";

contractSuite("in-process", async (services) => injectTransport(testApp(services)));
