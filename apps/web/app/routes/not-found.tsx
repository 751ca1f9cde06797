import { data } from "react-router";

/** Any path no feature claims: a 404 rendered by the root error boundary inside the shell. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return null;
}
