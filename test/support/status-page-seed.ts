import type { SeedFile } from "../../src/emulator";

/*
 * A status page a team already has, for `incident-sync import`: 12 incidents of 1 to 4 updates,
 * their messages over several lines, in Markdown and in several scripts, on a page of two cards.
 */

export const LIVE_ACCOUNT = "acct-live";
export const LIVE_KEY = "live-key-0123456789";

const SERVICES = [
  { id: "0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a01", name: "Public API" },
  { id: "0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a02", name: "Checkout" },
  { id: "0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a03", name: "Web app" },
  { id: "0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a04", name: "Zahlungen (EU)" },
  { id: "0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a05", name: "ログイン" },
  { id: "0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a06", name: "Internal: batch jobs" },
] as const;
const [API, CHECKOUT, WEB, PAYMENTS, LOGIN] = SERVICES.map((service) => service.id);

/** Messages as people write them on a status page. */
export const MESSAGES = [
  "We are looking into elevated error rates.",
  "Root cause found:\n\n- a bad deploy of `orders-api` (v2.31)\n- **rolled back** at 10:42 UTC\n\nWatching closely.",
  "Zahlungen schlagen für einige Kund:innen fehl. Wir prüfen das – Grüße aus Köln.\n",
  "決済の遅延が発生しています。\n現在調査中です。",
  "# Not a heading in YAML\n  indented line: with a colon\n\ttabbed line\n",
  "Fixed 🚀 — thanks for your patience!",
  "مرحبا: the issue is resolved for Arabic-speaking customers too.",
  '"Quoted" text, a trailing space  \nand a line that ends with a backslash \\',
  "- looks like a list item\n- and another: with \"quotes\" and 'apostrophes'",
  "> quoted in Markdown\n>\n> across lines",
  "Status: still investigating; next update in 30 min.",
  "Resolved.\n\n\n",
];

const at = (hours: number) => new Date(Date.UTC(2026, 10, 2, 8) + hours * 3_600_000).toISOString();

type SeedIncident = NonNullable<NonNullable<SeedFile["accounts"]>[number]["incidents"]>[number];

function incident(
  index: number,
  name: string,
  services: readonly (string | undefined)[],
  statuses: readonly (string | null)[],
): SeedIncident {
  return {
    id: `7d1e2c3b-4a5f-4e6d-8c7b-${String(index).padStart(12, "0")}`,
    name,
    severity: (["CRITICAL", "MAJOR", "MEDIUM", "MINOR"] as const)[index % 4] ?? "MINOR",
    services: services.filter((service): service is string => service !== undefined),
    created_at: at(index * 5),
    updates: statuses.map((status, update) => ({
      description: MESSAGES[(index + update * 5) % MESSAGES.length] ?? "",
      ...(status === null ? {} : { status: status as "INVESTIGATING" }),
      created_at: at(index * 5 + update),
    })),
  };
}

/** The 12 incidents; 4 of them resolved. */
export const LIVE_INCIDENTS: SeedIncident[] = [
  incident(1, "Elevated error rate on the public API", [API, WEB], ["INVESTIGATING", "IDENTIFIED"]),
  incident(2, "Elevated error rate on the public API", [API], ["INVESTIGATING", "RESOLVED"]),
  incident(3, "Zahlungen: Störung in der EU", [PAYMENTS, CHECKOUT], ["INVESTIGATING"]),
  incident(4, "決済の遅延", [PAYMENTS], ["INVESTIGATING", null, "MONITORING"]),
  incident(
    5,
    "Login failures for some SSO users",
    [LOGIN, WEB],
    ["INVESTIGATING", "IDENTIFIED", "MONITORING", "RESOLVED"],
  ),
  incident(6, 'Checkout: slow "confirm" step', [CHECKOUT], ["IDENTIFIED", "MONITORING"]),
  incident(
    7,
    "Web app slow to load in some regions",
    [WEB],
    ["INVESTIGATING", "MONITORING", "RESOLVED"],
  ),
  incident(8, "API rate limits lowered by mistake", [API], ["MONITORING"]),
  incident(
    9,
    "Status page: scheduled maintenance of the database",
    [API, WEB, CHECKOUT],
    ["MONITORING", "RESOLVED"],
  ),
  incident(10, "Login page shows an error for Safari users", [LOGIN], ["INVESTIGATING", null]),
  incident(
    11,
    "Payments declined: card provider outage",
    [PAYMENTS],
    ["INVESTIGATING", "IDENTIFIED", "MONITORING"],
  ),
  incident(
    12,
    "Web app: intermittent 502s",
    [WEB, API],
    ["INVESTIGATING", "IDENTIFIED", "IDENTIFIED", "MONITORING"],
  ),
];

/** The account with its services, one status page of two cards, and the 12 incidents. */
export function liveSeed(): SeedFile {
  return {
    accounts: [
      {
        id: LIVE_ACCOUNT,
        apiKeys: [LIVE_KEY],
        services: [...SERVICES],
        statusPages: [
          {
            id: "5f0a9c1e-2d3b-4c5d-8e6f-000000000001",
            name: "Acme status",
            url: "acme-status",
            customDomain: "status.acme.example",
            cards: [
              { name: "Shop", services: [WEB ?? "", CHECKOUT ?? "", PAYMENTS ?? ""] },
              { name: "Platform", services: [API ?? "", LOGIN ?? ""] },
            ],
          },
        ],
        incidents: LIVE_INCIDENTS,
      },
    ],
  };
}
