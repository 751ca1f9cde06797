/** What a same-origin JSON POST to the API came back with. */
export interface PostAnswer<T> {
  ok: boolean;
  status: number;
  code: string;
  data: T | null;
}

/** POSTs JSON with the session cookie; never throws (network failures read as status 0). */
export async function postJson<T>(path: string, body: unknown): Promise<PostAnswer<T>> {
  try {
    const res = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    });
    const env = (await res.json().catch(() => null)) as { code?: string; data?: T } | null;
    const code = env?.code ?? "";
    return { ok: code === "00000" || code === "200", status: res.status, code, data: env?.data ?? null };
  } catch {
    return { ok: false, status: 0, code: "", data: null };
  }
}
