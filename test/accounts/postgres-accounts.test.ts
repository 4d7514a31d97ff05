import { openPostgresForTest, serverSkip } from "../support/databases.js";
import { accountsConformance } from "./accounts-conformance.js";

accountsConformance("PostgreSQL", await serverSkip("PostgreSQL"), () => openPostgresForTest());
