/**
 * `npm run keys:issuer -- --out <file outside the repo>`
 *
 * Makes a deployment's issuer key pair (ECDSA P-256). The private half (a JWK) goes to
 * <file>, mode 0600, never to the output: keep it offline, it only signs server keys
 * (`npm run keys:server`). The output is the public half as the variable the web build
 * and the server read (README, "Keys for a real deployment").
 */

import { generateIssuerKeys, issuerThumbprint } from "../apps/server/src/modules/gateway-sign/keys.ts";
import { ISSUER_PUBLIC_JWK_ENV } from "../packages/contracts/src/sign.ts";
import { argOf, fail, secretPathOutsideRepo, writeSecret } from "./keys-common.ts";

const out = argOf(process.argv.slice(2), "out");
if (out === undefined || out === "")
  fail("usage: npm run keys:issuer -- --out <file outside the repository>", 2);
const file = secretPathOutsideRepo(out);
const { privateJwk, publicJwk } = generateIssuerKeys();
writeSecret(file, `${JSON.stringify(privateJwk)}\n`);

process.stdout.write(
  [
    `# Issuer ${issuerThumbprint(publicJwk)}: private key written to ${file} (mode 0600).`,
    "# Build the web app and run the server with:",
    `${ISSUER_PUBLIC_JWK_ENV}='${JSON.stringify(publicJwk)}'`,
    "",
  ].join("\n"),
);
