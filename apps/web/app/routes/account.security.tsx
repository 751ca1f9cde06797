import { TwoFactorSetup } from "../features/account/account-pages.tsx";

export function meta() {
  return [{ title: "Two-factor authentication | Meridian" }, { name: "robots", content: "noindex" }];
}

export default function AccountSecurityRoute() {
  return <TwoFactorSetup />;
}
