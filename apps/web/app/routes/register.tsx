import { useSearchParams } from "react-router";
import { RegisterForm } from "../features/account/register-form.tsx";

export function meta() {
  return [{ title: "Sign up | Meridian" }];
}

export default function Register() {
  const [params] = useSearchParams();
  return (
    <RegisterForm
      account={params.get("account") ?? undefined}
      onDone={() => location.assign("/account/overview")}
    />
  );
}
