import { describe, expect, it } from "vitest";
import { guideCorner } from "./guide.tsx";

const viewport = { width: 1280, height: 800 };
const card = { width: 340, height: 180 };

describe("guideCorner", () => {
  it("keeps the bottom-end corner when the area is elsewhere", () => {
    expect(guideCorner({ left: 0, top: 100, width: 300, height: 500 }, card, viewport, false)).toBe(
      "bottom-end",
    );
  });

  it("moves off an order form in the bottom-end corner, to the top when the whole right side is taken", () => {
    const form = { left: 900, top: 500, width: 380, height: 300 };
    expect(guideCorner(form, card, viewport, false)).toBe("top-end");
    const rightColumn = { left: 900, top: 64, width: 380, height: 736 };
    expect(guideCorner(rightColumn, card, viewport, false)).toBe("bottom-start");
  });

  it("reads end as left in right-to-left pages", () => {
    const leftColumn = { left: 0, top: 64, width: 380, height: 736 };
    expect(guideCorner(leftColumn, card, viewport, true)).toBe("bottom-start");
    expect(guideCorner(leftColumn, card, viewport, false)).toBe("bottom-end");
  });

  it("picks the corner that covers least when none is free", () => {
    const bottomHalf = { left: 0, top: 400, width: 1280, height: 400 };
    expect(guideCorner(bottomHalf, card, viewport, false)).toBe("top-end");
  });
});
