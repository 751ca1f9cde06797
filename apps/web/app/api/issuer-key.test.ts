import { LoginEncryptError, verifyServerKey } from "@meridian/client";
import { DEV_ISSUER_PUBLIC_JWK } from "@meridian/contracts";
import { describe, expect, it, vi } from "vitest";
import { buildIssuerJwk } from "./issuer-key.ts";

const other = {
  kty: "EC",
  crv: "P-256",
  x: "u3hhM5DQGrmjbJCkK_ORkE4FQqQoMb2W2QwaQ00FLdA",
  y: "L6mCHgXtEdpb5FqnKdGFEegsEKgttjcw_2_jf7NvLH8",
};

describe("buildIssuerJwk", () => {
  it("is the development issuer when the build sets none, else the build's key", () => {
    expect(buildIssuerJwk(undefined)).toEqual(DEV_ISSUER_PUBLIC_JWK);
    expect(buildIssuerJwk(JSON.stringify({ ...other, kid: "prod" }))).toEqual(other);
  });

  it("never falls back to the development key on a malformed value: the key check then fails", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = buildIssuerJwk(JSON.stringify({ ...other, d: "secret" }));
    expect(broken).not.toEqual(DEV_ISSUER_PUBLIC_JWK);
    expect(String(error.mock.calls[0]?.[1])).not.toContain("secret");
    const config = {
      serverPublicKey: "AAAA",
      serverPublicKeySign: "AAAA",
      encryptAlgorithm: "v2-rsa-oaep256-a256gcm" as const,
    };
    await expect(verifyServerKey(config, broken)).rejects.toBeInstanceOf(LoginEncryptError);
    error.mockRestore();
  });
});
