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
  description: z.string().nullish(),
  cards: z.array(StatusPageCard),
  logo: z.string().nullish(),
  logoDark: z.string().nullish(),
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

/**
 * A page's `url`: its subdomain, one DNS label (letters, digits and inner hyphens, at most 63).
 * The service lower-cases it and keeps it unique across the service (`statusPageUrlKey`).
 */
export const STATUS_PAGE_URL_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** A page's `url` as the service keeps and compares it: lower-cased. */
export function statusPageUrlKey(url: string): string {
  return url.toLowerCase();
}

/** A card as a create or a change sends it; with the `id` of one of the page's cards, it keeps it. */
export const StatusPageCardRequest = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  /** The services the card shows, in order, each by its id. */
  services: z.array(z.strictObject({ id: z.string().min(1) })),
});
export type StatusPageCardRequest = z.infer<typeof StatusPageCardRequest>;

/** An optional text of a page; `null` clears it, as a change sends the page as a whole. */
const PageText = z.string().min(1).nullable().optional();
const ThemeColorRequest = z.record(z.string().min(1), z.string().min(1));

/**
 * The body of `POST /v1/status-pages` and of `PUT /v1/status-pages/{statusPageId}`: the page as a
 * whole, its cards in order. A field left out of a change is not kept (the service's reference).
 */
export const StatusPageRequest = z.strictObject({
  name: z.string().min(1),
  url: z
    .string()
    .regex(
      STATUS_PAGE_URL_PATTERN,
      "must be one subdomain label: letters, digits and inner hyphens, at most 63 characters",
    ),
  cards: z.array(StatusPageCardRequest),
  description: PageText,
  customDomain: PageText,
  logo: PageText,
  logoDark: PageText,
  favicon: PageText,
  redirectTo: PageText,
  themeColors: z
    .strictObject({ light: ThemeColorRequest.optional(), dark: ThemeColorRequest.optional() })
    .nullable()
    .optional(),
  defaultTheme: z.enum(STATUS_PAGE_THEMES).optional(),
});
export type StatusPageRequest = z.infer<typeof StatusPageRequest>;

/** The status-page list as the emulator answers it: `{ length, entries, nextId }`. */
export const StatusPageList = cursorList(StatusPage);
export type StatusPageList = z.infer<typeof StatusPageList>;
