import type { ErrorGroup, HeartbeatEvent, HeartbeatStats, IncidentResponse } from "../../src/api";

export const API_KEY = "sk_test_5f1d0c9a7e3b4b21_very_secret";

export const incident = (id: string): IncidentResponse => ({
  id,
  name: "Checkout is slow",
  severity: "MAJOR",
  services: [{ id: "svc_checkout", name: "Checkout" }],
  incidentUpdates: [],
  lastUpdateStatus: "INVESTIGATING",
  created_at: "2026-05-01T10:00:00.000Z",
});

export const errorGroup = (id: string, lastSeen: string, checkId = "chk_1"): ErrorGroup => ({
  id,
  checkId,
  errorHash: `hash_${id}`,
  rawErrorMessage: `Error ${id}`,
  cleanedErrorMessage: `Error ${id}`,
  firstSeen: "2026-01-01T00:00:00.000Z",
  lastSeen,
  archivedUntilNextEvent: false,
});

export const heartbeatEvent = (id: string, timestamp: string): HeartbeatEvent => ({
  id,
  state: "FAILING",
  timestamp,
  source: "ping missed",
  userAgent: "test",
});

export const stats: HeartbeatStats = {
  last24Hours: {
    successRatio: { previousPeriod: 99.5, currentPeriod: 97 },
    totalEntitiesCurrentPeriod: 288,
  },
  last7Days: {
    successRatio: { previousPeriod: 99.9, currentPeriod: 99 },
    totalEntitiesCurrentPeriod: 2016,
  },
};
