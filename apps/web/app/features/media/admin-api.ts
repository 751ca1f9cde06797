import {
  MEDIA_API,
  type MediaAsset,
  type MediaLinks,
  type MediaLinksResult,
  type MediaOwner,
  type MediaRole,
  mediaPath,
} from "@meridian/contracts/media-rules";

interface Envelope<T> {
  code: string;
  msg: string;
  data: T;
}

/**
 * A call to the media admin API with the gateway's signing headers (the routes declare a
 * sign mode, docs/security-gateway.md): the account client's device key signs path, time
 * and trace id, and the body's MD5 for JSON bodies. Multipart uploads are signed in mode 1.
 */
async function signedCall<T>(path: string, method: string, body?: FormData | string): Promise<T> {
  const { accountClient } = await import("../account/account-client.ts");
  const client = accountClient();
  await client.loadSession();
  const time = client.security.now();
  const sign = await client.security.beforeSend({
    path,
    url: path,
    body: typeof body === "string" ? body : undefined,
    time,
  });
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: {
      tm: String(time),
      ...(typeof body === "string" ? { "content-type": "application/json" } : {}),
      ...sign,
    },
    ...(body === undefined ? {} : { body }),
  });
  const answer = (await response.json()) as Envelope<T>;
  if (answer.code !== "00000") throw new Error(answer.msg || answer.code);
  return answer.data;
}

export function uploadImage(role: MediaRole, file: File): Promise<MediaAsset> {
  const form = new FormData();
  form.set("role", role);
  form.set("file", file);
  return signedCall<MediaAsset>(MEDIA_API.upload, "POST", form);
}

const linksPath = (owner: MediaOwner, slug: string) => mediaPath(MEDIA_API.links, { owner, slug });

export const getImageLinks = (owner: MediaOwner, slug: string) =>
  signedCall<MediaLinksResult>(linksPath(owner, slug), "GET");

export const setImageLinks = (owner: MediaOwner, slug: string, links: MediaLinks) =>
  signedCall<MediaLinksResult>(linksPath(owner, slug), "PUT", JSON.stringify(links));
