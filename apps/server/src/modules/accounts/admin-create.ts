import { parseArgs } from "node:util";
import { loadConfig } from "../../platform/config.ts";
import { openDb } from "../../platform/db/index.ts";
import { loadMigrations, migrate } from "../../platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "../../platform/db/migrations/index.ts";
import { ensureLocalSecrets, readLocalSecrets } from "../../platform/local-secrets.ts";
import { sharedSecretStore } from "../../platform/shared-secrets.ts";
import { emailTarget } from "./codes.ts";
import { loadAccountsConfig } from "./config.ts";
import { AccountsRepo } from "./repo.ts";
import { hashPassword } from "./secrets.ts";
import { AccountsService } from "./service.ts";
import { accountsSharedEnv } from "./shared-env.ts";
import { DroppingTransport } from "./transport.ts";

/**
 * `npm run admin:create -- --email a@b.c --password ...`: creates an admin account, or
 * promotes an existing one (and then sets the given password).
 */
const { values } = parseArgs({ options: { email: { type: "string" }, password: { type: "string" } } });
if (values.email === undefined || values.password === undefined || values.password.length < 8) {
  console.error("usage: npm run admin:create -- --email a@b.c --password <at least 8 characters>");
  process.exit(2);
}
// The same secrets the server uses when the environment leaves them unset (local-secrets.ts,
// then the database's shared ones): the server's generated files even when this shell's
// NODE_ENV is not production.
readLocalSecrets(loadConfig().dataDir);
ensureLocalSecrets(loadConfig().dataDir);
const config = loadConfig();
const db = openDb(config);
try {
  await migrate(db, await loadMigrations(MIGRATIONS_DIR));
  const store = sharedSecretStore(db, { production: config.isProduction, key: config.secretsKey });
  Object.assign(process.env, await accountsSharedEnv(store, process.env));
  const repo = new AccountsRepo(db);
  const service = new AccountsService({
    repo,
    config: loadAccountsConfig(),
    transport: new DroppingTransport({ info: () => undefined, warn: () => undefined }),
  });
  const email = emailTarget(values.email).address;
  const existing = await repo.userByEmail(email);
  if (existing === undefined) {
    const id = await service.createUser({
      email,
      areaCode: null,
      mobile: null,
      phoneKey: null,
      password: values.password,
      role: "admin",
    });
    console.log(`admin created: ${email} (user id ${id})`);
  } else {
    await repo.setRole(existing.id, "admin", Date.now());
    await repo.setPassword(existing.id, await hashPassword(values.password), Date.now());
    console.log(`admin role granted: ${email} (user id ${existing.id})`);
  }
} finally {
  await db.close();
}
