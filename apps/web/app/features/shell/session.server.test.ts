import { describe, expect, it } from "vitest";
import type { ServerContext } from "../../server-context.ts";
import { loadShellUser } from "./session.server.ts";

const SESSION = "mer_token=abc";

function fakeServer(answer: unknown, fail = false, calls: string[] = []): ServerContext {
  return {
    requestId: "r",
    nonce: "n",
    origin: "http://meridian.test",
    api: (async (path: string) => {
      calls.push(path);
      if (fail) throw new Error("down");
      return answer;
    }) as ServerContext["api"],
  };
}

describe("loadShellUser", () => {
  it("reads the user-info answer", async () => {
    const server = fakeServer({
      code: "00000",
      msg: "",
      data: { userInfo: { userId: 42, nickName: "Ada" } },
    });
    expect(await loadShellUser(server, "en_US", SESSION)).toMatchObject({ userId: "42", nickName: "Ada" });
  });

  it("treats errors, other codes and a missing context as anonymous", async () => {
    expect(await loadShellUser(undefined, "en_US", SESSION)).toBeUndefined();
    expect(await loadShellUser(fakeServer(null, true), "en_US", SESSION)).toBeUndefined();
    expect(
      await loadShellUser(fakeServer({ code: "10401", msg: "", data: null }), "en_US", SESSION),
    ).toBeUndefined();
    expect(
      await loadShellUser(fakeServer({ code: "00000", msg: "", data: { userInfo: null } }), "en_US", SESSION),
    ).toBeUndefined();
  });

  it("makes no call without a session or refresh cookie", async () => {
    const calls: string[] = [];
    const server = fakeServer({ code: "00000", msg: "", data: { userInfo: { userId: 1 } } }, false, calls);
    expect(await loadShellUser(server, "en_US", "theme=black")).toBeUndefined();
    expect(await loadShellUser(server, "en_US", null)).toBeUndefined();
    expect(calls).toEqual([]);
    expect(await loadShellUser(server, "en_US", "mer_refresh=r")).toMatchObject({ userId: "1" });
    expect(calls).toEqual(["/v1/user/overview/userinfo"]);
  });
});
