/**
 * `npm run keys:server -- --issuer <issuer private key file> [--out <env file>]`
 *
 * Makes the server's login-encryption key (RSA-2048) and signs its public half with the
 * issuer key from `npm run keys:issuer`. Prints the environment lines the server reads
 * (GATEWAY_SERVER_PRIVATE_KEY, GATEWAY_SERVER_KEY_SIGN and the issuer's public key), or
 * writes them to a new file with mode 0600 outside the repository with `--out`.
 */
import type crypto from "node:crypto";
import fs from "node:fs";
import {
  generateServerKeys,
  issuerSigned,
  issuerThumbprint,
  serverKeyEnv,
} from "../apps/server/src/modules/gateway-sign/keys.ts";
import { ISSUER_PUBLIC_JWK_ENV, parseIssuerPublicJwk } from "../packages/contracts/src/sign.ts";
import { argOf, fail, fromUserCwd, secretPathOutsideRepo, writeSecret } from "./keys-common.ts";

const argv = process.argv.slice(2);
const issuerArg = argOf(argv, "issuer");
if (issuerArg === undefined || issuerArg === "")
  fail("usage: npm run keys:server -- --issuer <issuer private key file> [--out <env file>]", 2);
const issuerFile = fromUserCwd(issuerArg);
const outArg = argOf(argv, "out");
const outFile = outArg === undefined ? undefined : secretPathOutsideRepo(outArg);

let issuerJwk: crypto.JsonWebKey;
try {
  const mode = fs.statSync(issuerFile).mode & 0o077;
  if (mode !== 0) process.stderr.write(`warning: ${issuerFile} is readable by others (chmod 600 it)\n`);
  issuerJwk = JSON.parse(fs.readFileSync(issuerFile, "utf8")) as crypto.JsonWebKey;
  if (issuerJwk.kty !== "EC" || issuerJwk.crv !== "P-256" || typeof issuerJwk.d !== "string")
    throw new Error("not an ECDSA P-256 private JWK");
} catch (err) {
  // The message never quotes the file: it holds the private key.
  fail(
    `${issuerFile}: not an issuer private key (${err instanceof Error ? err.message.split("\n")[0] : "unreadable"})`,
  );
}
const publicJwk = parseIssuerPublicJwk(JSON.stringify({ ...issuerJwk, d: undefined }));
const keys = generateServerKeys(issuerJwk);
if (!issuerSigned(publicJwk, keys.publicKeyB64, keys.publicKeySign))
  fail("the new signature does not verify");
const env = serverKeyEnv(keys);

const text = [
  `# Server key ${keys.keyId}, signed by issuer ${issuerThumbprint(publicJwk)} on ${new Date().toISOString()}.`,
  `GATEWAY_SERVER_PRIVATE_KEY="${env.GATEWAY_SERVER_PRIVATE_KEY}"`,
  `GATEWAY_SERVER_KEY_SIGN=${env.GATEWAY_SERVER_KEY_SIGN}`,
  `${ISSUER_PUBLIC_JWK_ENV}='${JSON.stringify(publicJwk)}'`,
  "",
].join("\n");
if (outFile === undefined) process.stdout.write(text);
else {
  writeSecret(outFile, text);
  process.stdout.write(`Server key ${keys.keyId} written to ${outFile} (mode 0600).\n`);
}
