import { describe, expect, test } from "vitest";
import { readPushMessage } from "./pushMessage";

describe("readPushMessage", () => {
  test.each([
    [
      "a full message",
      { title: "You're on deck", body: "Mic at The Pit", url: "/event/abc", tag: "deck:abc" },
      { title: "You're on deck", body: "Mic at The Pit", url: "/event/abc", tag: "deck:abc" },
    ],
    ["nothing usable", null, { title: "StageTime", body: "", url: "/", tag: undefined }],
    [
      "another origin",
      { title: "Hi", url: "https://evil.test/x" },
      { title: "Hi", body: "", url: "/", tag: undefined },
    ],
    [
      "a protocol-relative URL",
      { title: "Hi", url: "//evil.test/x" },
      { title: "Hi", body: "", url: "/", tag: undefined },
    ],
    ["wrong types", { title: 5, body: ["x"], url: 7 }, { title: "StageTime", body: "", url: "/", tag: undefined }],
  ])("%s", (_name, raw, expected) => {
    expect(readPushMessage(raw)).toEqual(expected);
  });

  test("caps long text", () => {
    const message = readPushMessage({ title: "t".repeat(1000), body: "b".repeat(1000) });
    expect(message.title).toHaveLength(120);
    expect(message.body).toHaveLength(400);
  });
});
