import crypto from "node:crypto";
import type { Seed } from "../../platform/db/seed.ts";
import { AccountsRepo } from "./repo.ts";
import { hashPassword } from "./secrets.ts";

/** The demo accounts' login names (docs/accounts.md names them too). */
export const DEMO_TRADER_EMAIL = "demo@meridian.example";
export const DEMO_ADMIN_EMAIL = "admin@meridian.example";

/**
 * 16 characters from an alphabet without look-alikes (no 0/O, 1/l/I): about 93 bits,
 * easy to copy from a log line.
 */
function demoPassword(): string {
  const alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  let out = "";
  for (let i = 0; i < 16; i++) out += alphabet[crypto.randomInt(alphabet.length)];
  return out;
}

async function createDemoUser(repo: AccountsRepo, email: string, role: "user" | "admin", password: string) {
  if ((await repo.userByEmail(email)) !== undefined) return false;
  for (let i = 0; i < 5; i++) {
    const inserted = await repo.insertUser({
      id: crypto.randomInt(1_000_000_000, 10_000_000_000).toString(),
      email,
      areaCode: null,
      mobile: null,
      phoneKey: null,
      passwordHash: await hashPassword(password),
      role,
      emailEnable: false,
      phoneEnable: false,
      locale: "en",
      now: Date.now(),
    });
    if (inserted) return true;
  }
  return false;
}

/**
 * A way in on a fresh start: a demo trader and an administrator, each with a random
 * password printed once, here, in the server log. Like an exchange's demo environment,
 * nothing is fixed or published: whoever runs the server reads the log, and a lost
 * password is reset by e-mail (in demo mode the code is in the same log).
 */
export const accountsSeed: Seed = {
  name: "accounts-demo",
  async seed(db, { log }) {
    const repo = new AccountsRepo(db);
    const trader = demoPassword();
    const admin = demoPassword();
    const madeTrader = await createDemoUser(repo, DEMO_TRADER_EMAIL, "user", trader);
    const madeAdmin = await createDemoUser(repo, DEMO_ADMIN_EMAIL, "admin", admin);
    const lines = [
      madeTrader ? `  demo trader:   ${DEMO_TRADER_EMAIL}  password: ${trader}` : undefined,
      madeAdmin ? `  administrator: ${DEMO_ADMIN_EMAIL}  password: ${admin}` : undefined,
    ].filter((l) => l !== undefined);
    if (lines.length === 0) return;
    log.warn(
      { demoAccounts: lines.length },
      `demo accounts created (shown once; log in at /login: a browser's first login asks for a code e-mailed to the account, which this log shows without SMTP_URL; reset a lost password with "Forgot password"):\n${lines.join("\n")}`,
    );
  },
};
