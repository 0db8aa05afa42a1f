import { describe, expect, it } from "vitest";
import { notTaken } from "../../src/incident";

const declared = {
  name: "Checkout is slow",
  severity: "MAJOR" as const,
  services: [{ id: "svc-checkout", name: "Checkout" }],
};
const answer = { ...declared, lastUpdateStatus: "MONITORING" };

describe("notTaken: a PUT's answer compared with what was sent", () => {
  it("is silent when the service took every field and the status", () => {
    expect(notTaken("inc-1", declared, "MONITORING", answer)).toBeUndefined();
    // No status sent: whatever the live one is, nothing to check.
    expect(
      notTaken("inc-1", declared, undefined, { ...answer, lastUpdateStatus: "RESOLVED" }),
    ).toBeUndefined();
  });

  it("names the status the service kept, and says to declare it through updates", () => {
    const refusal = notTaken("inc-1", declared, "RESOLVED", answer);
    expect(refusal).toContain(
      'the service answered the PUT with status "MONITORING", not what was sent (status RESOLVED)',
    );
    expect(refusal).toContain("The next run sends it again.");
    expect(refusal).toContain("declare the incident's status with `updates:`");
  });

  it("counts a status it does not know as not taken", () => {
    expect(
      notTaken("inc-1", declared, "MONITORING", { ...answer, lastUpdateStatus: "WATCHING" }),
    ).toContain('status "WATCHING"');
  });

  it("names every field it kept, the services by id", () => {
    const refusal = notTaken("inc-1", declared, undefined, {
      ...answer,
      name: "Old name",
      services: [{ id: "svc-web" }],
    });
    expect(refusal).toContain('name "Old name" and services svc-web, not what was sent');
    expect(refusal).toContain("change it on the status page");
  });
});
