import { z } from "zod";
import { cursorList } from "./cursor-list";
import { ResponseDate } from "./dates";
import { Service } from "./service";

/*
 * The account's status pages as the service's public reference answers them: each page's
 * cards, and the services each card shows. Read liberally: only `id` and `cards` are relied on.
 */

/** The themes the reference names; another value is tolerated and read as a string. */
export const STATUS_PAGE_THEMES = ["AUTO", "DARK", "LIGHT"] as const;

/** One colour scheme of a page's theme: colour names to CSS colours, as the service keeps them. */
const ThemeColorSet = z.record(z.string(), z.string().nullable());

/** A card of a status page: a named group of services. */
export const StatusPageCard = z.object({
  id: z.string(),
  name: z.string().nullish(),
  services: z.array(Service),
  created_at: ResponseDate.nullish(),
  updated_at: ResponseDate.nullish(),
});
export type StatusPageCard = z.infer<typeof StatusPageCard>;

/**
 * A status page (`GET /v1/status-pages/{statusPageId}`): its address (`url`, the subdomain, and
 * `customDomain`), its cards with their services, and its theme.
 */
export const StatusPage = z.object({
  id: z.string(),
  name: z.string().nullish(),
  url: z.string().nullish(),
  accountId: z.string().nullish(),
  customDomain: z.string().nullish(),
  cards: z.array(StatusPageCard),
  logo: z.string().nullish(),
  redirectTo: z.string().nullish(),
  favicon: z.string().nullish(),
  defaultTheme: z
    .string()
    .nullish()
    .describe(`One of ${STATUS_PAGE_THEMES.join(", ")}; another value is tolerated.`),
  themeColors: z
    .object({ light: ThemeColorSet.nullish(), dark: ThemeColorSet.nullish() })
    .nullish(),
  whiteLabel: z.boolean().nullish(),
  created_at: ResponseDate.nullish(),
  updated_at: ResponseDate.nullish(),
});
export type StatusPage = z.infer<typeof StatusPage>;

/** The status-page list as the emulator answers it: `{ length, entries, nextId }`. */
export const StatusPageList = cursorList(StatusPage);
export type StatusPageList = z.infer<typeof StatusPageList>;
