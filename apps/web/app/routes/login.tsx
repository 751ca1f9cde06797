import { LoginForm } from "../features/account/login-form.tsx";

export function meta() {
  return [{ title: "Log in | Meridian" }, { name: "robots", content: "noindex" }];
}

export default function Login() {
  return <LoginForm onDone={() => location.assign("/account/overview")} />;
}
