import { IdentityVerification } from "../features/account/account-pages.tsx";

export function meta() {
  return [{ title: "Identity verification | Meridian" }, { name: "robots", content: "noindex" }];
}

export default function AccountIdentityRoute() {
  return <IdentityVerification />;
}
