import {
  MEDIA_API,
  type MediaAsset,
  type MediaLinks,
  type MediaLinksResult,
  type MediaOwner,
  type MediaRole,
  mediaPath,
} from "@meridian/contracts/media-rules";
import { adminCall as call } from "./api-call.ts";

// Admin calls through the tab's client, which signs them (docs/security-gateway.md); the
// upload's multipart body is signed in mode 1, as its route declares.
export function uploadImage(role: MediaRole, file: File): Promise<MediaAsset> {
  const form = new FormData();
  form.set("role", role);
  form.set("file", file);
  return call<MediaAsset>(MEDIA_API.upload, "POST", form);
}

const linksPath = (owner: MediaOwner, slug: string) => mediaPath(MEDIA_API.links, { owner, slug });

export const getImageLinks = (owner: MediaOwner, slug: string) =>
  call<MediaLinksResult>(linksPath(owner, slug), "GET");

export const setImageLinks = (owner: MediaOwner, slug: string, links: MediaLinks) =>
  call<MediaLinksResult>(linksPath(owner, slug), "PUT", links);
