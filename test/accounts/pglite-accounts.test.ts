import { openPgliteForTest } from "../support/databases.js";
import { accountsConformance } from "./accounts-conformance.js";

accountsConformance("PGlite (embedded)", false, openPgliteForTest);
