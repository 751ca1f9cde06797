import { TG_APPS_API, tgSubmissionBodySchema } from "@meridian/contracts";
import { postJson } from "../features/tg-apps/post.ts";

export type SubmitOutcome =
  | { kind: "invalid"; field: string }
  | { kind: "sent" }
  | { kind: "failed"; status: number };

/** Checks a listing request against the contract and posts it (loaded on the first submission). */
export async function sendSubmission(form: FormData): Promise<SubmitOutcome> {
  const parsed = tgSubmissionBodySchema.safeParse({
    name: String(form.get("name") ?? ""),
    botUsername: String(form.get("botUsername") ?? ""),
    website: String(form.get("website") ?? ""),
    category: Number(form.get("category")),
    email: String(form.get("email") ?? ""),
    description: String(form.get("description") ?? ""),
  });
  if (!parsed.success) return { kind: "invalid", field: String(parsed.error.issues[0]?.path[0] ?? "name") };
  const answer = await postJson(TG_APPS_API.submissions, parsed.data);
  return answer.ok ? { kind: "sent" } : { kind: "failed", status: answer.status };
}
