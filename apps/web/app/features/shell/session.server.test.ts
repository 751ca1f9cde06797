import { describe, expect, it } from "vitest";
import type { ServerContext } from "../../server-context.ts";
import { loadShellUser } from "./session.server.ts";

function fakeServer(answer: unknown, fail = false): ServerContext {
  return {
    requestId: "r",
    nonce: "n",
    origin: "http://meridian.test",
    api: (async () => {
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
    expect(await loadShellUser(server, "en_US")).toMatchObject({ userId: "42", nickName: "Ada" });
  });

  it("treats errors, other codes and a missing context as anonymous", async () => {
    expect(await loadShellUser(undefined, "en_US")).toBeUndefined();
    expect(await loadShellUser(fakeServer(null, true), "en_US")).toBeUndefined();
    expect(await loadShellUser(fakeServer({ code: "10401", msg: "", data: null }), "en_US")).toBeUndefined();
    expect(
      await loadShellUser(fakeServer({ code: "00000", msg: "", data: { userInfo: null } }), "en_US"),
    ).toBeUndefined();
  });
});
