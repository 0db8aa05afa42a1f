import { describe, expect, it } from "vitest";
import { slugOf, uniqueFileName } from "../../src/cli/import/file-name";

describe("the file an imported incident is written to", () => {
  it("is its name as a slug, in any script, readable in a listing", () => {
    expect(slugOf("Elevated error rate on the public API")).toBe(
      "elevated-error-rate-on-the-public-api",
    );
    expect(slugOf("Zahlungen: Störung in der EU")).toBe("zahlungen-storung-in-der-eu");
    expect(slugOf("決済の遅延")).toBe("決済の遅延");
    expect(slugOf("🚀 !!! 🚀")).toBe("incident");
    expect(slugOf("CON")).toBe("con-incident");
    expect(slugOf(`${"word ".repeat(30)}end`)).toBe(`${"word-".repeat(11)}word`);
  });

  it("takes a piece of the incident's id when the name is taken, whatever the case", () => {
    const taken = new Set(["services.yaml", "api-down.yaml"]);
    expect(uniqueFileName("API down", "7d1e2c3b-4a5f-4e6d", taken)).toBe("api-down-7d1e2c3b.yaml");
    expect(uniqueFileName("api DOWN", "7d1e2c3b-4a5f-4e6d", taken)).toBe(
      "api-down-7d1e2c3b4a5f4e6d.yaml",
    );
    expect(uniqueFileName("Services", "x", taken)).toBe("services-x.yaml");
    expect(uniqueFileName("Other", "x", taken)).toBe("other.yaml");
  });
});
