/** Pings every 30 minutes over the last day, alternating ok and failing: 45 state changes. */
export const FLAPPY_PINGS = Array.from({ length: 45 }, (_, i) => ({
  at: `-${23 * 60 - i * 30}m`,
  ok: i % 2 === 0,
  source: i % 3 === 0 ? "k8s-cronjob" : "manual run, from ops laptop",
  userAgent: "flappy/1.0",
}));

/** Two older state changes that only a 7-day window includes. */
export const OLDER_PINGS = [
  { at: "-3d", ok: true, source: "cron", userAgent: "curl/8.5.0" },
  { at: "-2d", ok: false, source: "cron", userAgent: "curl/8.5.0" },
];

/** An hourly job that pinged on time every hour, the last 10 minutes ago: healthy throughout. */
export const STEADY_PINGS = Array.from({ length: 30 }, (_, i) => ({
  at: `-${(29 - i) * 60 + 10}m`,
  ok: true,
  source: "k8s-cronjob",
  userAgent: "steady/1.0",
}));

export const HEARTBEATS = [
  { checkId: "hb-flappy", name: "Flappy sync", pings: [...OLDER_PINGS, ...FLAPPY_PINGS] },
  { checkId: "hb-quiet", name: "Quiet job", pings: [] },
  { checkId: "hb-steady", name: "Steady sync", period: "1h", grace: "10m", pings: STEADY_PINGS },
];
