import { contractSuite } from "./contract.js";
import { testApp } from "../support/test-app.js";
import { socketTransport } from "../support/transport.js";

contractSuite("real socket", async (services) => socketTransport(testApp(services)));
