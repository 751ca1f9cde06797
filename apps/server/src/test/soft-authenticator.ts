import crypto from "node:crypto";

/** The CBOR this authenticator writes: unsigned and negative integers, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}

function cbor(v: Cbor): Buffer {
  if (typeof v === "number") return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === "string") return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), Buffer.from(v)]);
  return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
}

const b64url = (b: Uint8Array) => Buffer.from(b).toString("base64url");
const sha256 = (b: Uint8Array | string) => crypto.createHash("sha256").update(b).digest();

interface Options {
  challenge: string;
  rp?: { id?: string };
  rpId?: string;
}

/**
 * A software FIDO2 authenticator for the integration tests (what Chromium's virtual
 * authenticator does in the browser tests): one ES256 credential, "none" attestation,
 * a signature counter the test can set, and any origin or relying party it is told.
 */
export class SoftAuthenticator {
  readonly #keys = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  readonly credentialId = crypto.randomBytes(16);
  counter = 0;

  get id(): string {
    return b64url(this.credentialId);
  }

  #authData(rpId: string, flags: number, extra: Buffer = Buffer.alloc(0)): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, extra]);
  }

  /** `navigator.credentials.create()`'s answer, serialised as the browser library sends it. */
  register(options: Options, origin: string): string {
    const rpId = options.rp?.id ?? "";
    const jwk = this.#keys.publicKey.export({ format: "jwk" });
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, cose]);
    // UP | UV | AT
    const authData = this.#authData(rpId, 0x45, attested);
    const clientData = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin });
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(Buffer.from(clientData)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    });
  }

  /** `navigator.credentials.get()`'s answer; the counter moves forward unless `counter` is given. */
  assert(options: Options, origin: string, o: { counter?: number; rpId?: string } = {}): string {
    this.counter = o.counter ?? this.counter + 1;
    const authData = this.#authData(o.rpId ?? options.rpId ?? "", 0x05);
    const clientData = Buffer.from(
      JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin }),
    );
    const signature = crypto.sign(
      "sha256",
      Buffer.concat([authData, sha256(clientData)]),
      this.#keys.privateKey,
    );
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: b64url(Buffer.from("user")),
      },
      clientExtensionResults: {},
    });
  }
}
