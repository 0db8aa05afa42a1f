import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import {
  type StatusPage,
  type StatusPageList,
  type StatusPageRequest,
  type StatusPageSubscription,
  statusPageUrlKey,
} from "../../api/schemas";
import type { DuplicateAnswer, ServiceInUse } from "../behaviour";
import { statement, transaction } from "../database";
import { ErrorResponse, notFound } from "../http-error";
import { nameUuid } from "../name-uuid";
import { toIso } from "../time";
import { type ListedRows, listPage } from "./list-cursor";
import { rewriteVisibility, windowsNaming } from "./maintenance-rows";
import { duplicateRefusal, type ServiceStore } from "./services";
import { listSubscriptions, setSubscribers } from "./subscriptions";

/** The status-page list's page size when the request gives none (the public reference). */
export const STATUS_PAGES_PAGE_DEFAULT = 20;

const LISTED: ListedRows = { table: "status_pages", columns: "*", newestFirst: false };

/** A status page as a seed declares it: its cards, each a name and the ids of its services. */
export interface StatusPageSeed {
  id: string;
  name: string;
  url: string;
  customDomain: string | null;
  cards: readonly { name: string; serviceIds: readonly string[] }[];
  /** How many subscribers to give it (each `subscriber-<n>@example.com`), when set. */
  subscribers?: number | undefined;
}

/** A card to write: its id (kept or new), its name and its services' ids, in order. */
interface CardRow {
  id: string;
  name: string;
  serviceIds: readonly string[];
}

/** What a page keeps beyond its address and cards, as sent (the theme and the texts). */
type Look = Omit<StatusPageRequest, "name" | "url" | "cards" | "customDomain">;

/** The account's status pages, their cards and the services each card shows. */
export class StatusPageStore {
  constructor(
    private readonly db: DatabaseSync,
    private readonly services: ServiceStore,
  ) {}

  /**
   * Creates or replaces a status page and its cards. A card's id is named after its page and
   * place, so loading the seed again gives it the same id.
   */
  upsert(accountId: string, page: StatusPageSeed, atMs: number): void {
    transaction(this.db, () => {
      statement(
        this.db,
        `INSERT INTO status_pages (account_id, id, name, url, custom_domain, created_ms, updated_ms)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (account_id, id) DO UPDATE SET name = excluded.name, url = excluded.url,
             custom_domain = excluded.custom_domain, updated_ms = excluded.updated_ms`,
      ).run(
        accountId,
        page.id,
        page.name,
        statusPageUrlKey(page.url),
        page.customDomain,
        atMs,
        atMs,
      );
      const cards = page.cards.map((card, position) => ({
        id: nameUuid(`${accountId}/status-page/${page.id}/card/${position}`),
        name: card.name,
        serviceIds: card.serviceIds,
      }));
      this.writeCards(accountId, page.id, cards);
      if (page.subscribers !== undefined) {
        setSubscribers(this.db, accountId, page.id, page.subscribers, atMs);
      }
    });
  }

  /**
   * `POST /v1/status-pages`: a new page, its id and its cards' ids GUIDs the service picks (an
   * id sent with a card names no card yet, so it is not taken). Its `url` is lower-cased and
   * must be free across the service, refused as `duplicate` says.
   */
  create(
    accountId: string,
    body: StatusPageRequest,
    nowMs: number,
    duplicate: DuplicateAnswer,
  ): StatusPage {
    return transaction(this.db, () => {
      const id = randomUUID();
      const cards = body.cards.map((card, index) => ({
        id: randomUUID(),
        name: card.name,
        serviceIds: this.cardServices(accountId, card.services, index),
      }));
      this.refuseTakenUrl(accountId, id, body.url, duplicate);
      statement(
        this.db,
        `INSERT INTO status_pages (account_id, id, name, url, custom_domain, created_ms, updated_ms)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        accountId,
        id,
        body.name,
        statusPageUrlKey(body.url),
        body.customDomain ?? null,
        nowMs,
        nowMs,
      );
      this.writeCards(accountId, id, cards);
      this.writeLook(accountId, id, body);
      return this.get(accountId, id);
    });
  }

  /**
   * `PUT /v1/status-pages/{statusPageId}`: the page as a whole. A card sent with the id of one
   * of the page's cards keeps it, one without gets a new id, one left out is removed; an id
   * that names no card of the page is refused (400), as is a `url` taken by another page.
   */
  replace(
    accountId: string,
    statusPageId: string,
    body: StatusPageRequest,
    nowMs: number,
    duplicate: DuplicateAnswer,
  ): StatusPage {
    return transaction(this.db, () => {
      this.get(accountId, statusPageId);
      const known = this.cardRows(accountId, statusPageId).map((card) => card.id);
      const kept = new Set<string>();
      const cards = body.cards.map((card, index): CardRow => {
        if (card.id !== undefined) {
          if (!known.includes(card.id) || kept.has(card.id)) {
            throw new ErrorResponse(
              400,
              `cards[${index}].id: ${card.id} ${kept.has(card.id) ? "is sent twice" : "is not a card of this status page"}; its cards: ${known.join(", ") || "none"}`,
            );
          }
          kept.add(card.id);
        }
        return {
          id: card.id ?? randomUUID(),
          name: card.name,
          serviceIds: this.cardServices(accountId, card.services, index),
        };
      });
      this.refuseTakenUrl(accountId, statusPageId, body.url, duplicate);
      statement(
        this.db,
        `UPDATE status_pages SET name = ?, url = ?, custom_domain = ?, updated_ms = ?
           WHERE account_id = ? AND id = ?`,
      ).run(
        body.name,
        statusPageUrlKey(body.url),
        body.customDomain ?? null,
        nowMs,
        accountId,
        statusPageId,
      );
      this.writeCards(accountId, statusPageId, cards);
      this.writeLook(accountId, statusPageId, body);
      return this.get(accountId, statusPageId);
    });
  }

  /**
   * `DELETE /v1/status-pages/{statusPageId}`: the page, its cards and its subscriptions. One a
   * maintenance window names is refused (409) or removed (`serviceInUse`): then the window
   * drops it, and the services it named that no other of its pages shows, as cards drop a service.
   */
  remove(accountId: string, statusPageId: string, inUse: ServiceInUse): void {
    transaction(this.db, () => {
      this.get(accountId, statusPageId);
      const windows = windowsNaming(this.db, accountId, "statusPageIds", statusPageId);
      if (windows.length > 0 && inUse === "refused") {
        const names = windows.map((window) => `maintenance window ${window.id}`).join(", ");
        throw new ErrorResponse(
          409,
          `status page ${statusPageId} is still named by ${names}: take it out of them first`,
        );
      }
      for (const window of windows) {
        const { statusPageIds, serviceIds } = window.stored.statusPageVisibility;
        const pages = statusPageIds.filter((id) => id !== statusPageId);
        const shown = new Set(
          pages.flatMap((id) =>
            this.get(accountId, id).cards.flatMap((card) => card.services.map((s) => s.id)),
          ),
        );
        const kept = serviceIds.filter((id) => shown.has(id));
        rewriteVisibility(this.db, accountId, window, { statusPageIds: pages, serviceIds: kept });
      }
      this.writeCards(accountId, statusPageId, []);
      setSubscribers(this.db, accountId, statusPageId, 0, 0);
      statement(
        this.db,
        "DELETE FROM status_page_looks WHERE account_id = ? AND status_page_id = ?",
      ).run(accountId, statusPageId);
      statement(this.db, "DELETE FROM status_pages WHERE account_id = ? AND id = ?").run(
        accountId,
        statusPageId,
      );
    });
  }

  /** `GET /v1/status-pages/{statusPageId}/subscriptions`, oldest first. */
  subscriptions(accountId: string, statusPageId: string): StatusPageSubscription[] {
    this.get(accountId, statusPageId);
    return listSubscriptions(this.db, accountId, statusPageId);
  }

  /** A card's services as ids, each a service of the account (400 naming those it has, else). */
  private cardServices(
    accountId: string,
    services: readonly { id: string }[],
    index: number,
  ): string[] {
    const ids = services.map((service) => service.id);
    const known = this.services.byIds(accountId, ids);
    const unknown = [...new Set(ids.filter((id) => !known.has(id)))];
    if (unknown.length > 0) {
      const available = this.services.ids(accountId);
      throw new ErrorResponse(
        400,
        `cards[${index}].services: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a service" : "are not services"} of this account; known services: ${available.join(", ") || "none"}`,
      );
    }
    return [...new Set(ids)];
  }

  /** A `url` is unique across the service, every account's pages included. */
  private refuseTakenUrl(
    accountId: string,
    statusPageId: string,
    url: string,
    duplicate: DuplicateAnswer,
  ): void {
    const key = statusPageUrlKey(url);
    const taken = statement(
      this.db,
      "SELECT account_id, id FROM status_pages WHERE url = ? AND NOT (account_id = ? AND id = ?)",
    ).get(key, accountId, statusPageId);
    if (taken === undefined) return;
    // Another account's page is not named: its id is none of this account's business.
    const whose =
      String(taken.account_id) === accountId ? `status page ${String(taken.id)}` : "another page";
    throw duplicateRefusal(duplicate, `url: ${key} is already taken by ${whose}`);
  }

  /** Replaces the page's cards with `cards`, in their order. */
  private writeCards(accountId: string, statusPageId: string, cards: readonly CardRow[]): void {
    for (const card of this.cardRows(accountId, statusPageId)) {
      statement(
        this.db,
        "DELETE FROM status_page_card_services WHERE account_id = ? AND card_id = ?",
      ).run(accountId, card.id);
    }
    statement(
      this.db,
      "DELETE FROM status_page_cards WHERE account_id = ? AND status_page_id = ?",
    ).run(accountId, statusPageId);
    cards.forEach((card, position) => {
      statement(
        this.db,
        "INSERT INTO status_page_cards (account_id, status_page_id, position, id, name) VALUES (?, ?, ?, ?, ?)",
      ).run(accountId, statusPageId, position, card.id, card.name);
      card.serviceIds.forEach((serviceId, at) => {
        statement(
          this.db,
          "INSERT INTO status_page_card_services (account_id, card_id, position, service_id) VALUES (?, ?, ?, ?)",
        ).run(accountId, card.id, at, serviceId);
      });
    });
  }

  private writeLook(accountId: string, statusPageId: string, body: StatusPageRequest): void {
    const { name: _name, url: _url, cards: _cards, customDomain: _domain, ...look } = body;
    statement(
      this.db,
      `INSERT INTO status_page_looks (account_id, status_page_id, look) VALUES (?, ?, ?)
         ON CONFLICT (account_id, status_page_id) DO UPDATE SET look = excluded.look`,
    ).run(accountId, statusPageId, JSON.stringify(look satisfies Look));
  }

  private look(accountId: string, statusPageId: string): Look {
    const row = statement(
      this.db,
      "SELECT look FROM status_page_looks WHERE account_id = ? AND status_page_id = ?",
    ).get(accountId, statusPageId);
    return row === undefined ? {} : (JSON.parse(String(row.look)) as Look);
  }

  /** `GET /v1/status-pages/{statusPageId}`. */
  get(accountId: string, statusPageId: string): StatusPage {
    const row = statement(
      this.db,
      "SELECT * FROM status_pages WHERE account_id = ? AND id = ?",
    ).get(accountId, statusPageId);
    if (row === undefined) throw notFound("status page", statusPageId);
    return this.render(accountId, row);
  }

  /** One page of the account's status pages, oldest first (`nextId`: see list-cursor.ts). */
  list(accountId: string, limit: number, cursor: string | undefined): StatusPageList {
    return listPage(this.db, LISTED, accountId, { limit, cursor }, (row) =>
      this.render(accountId, row),
    );
  }

  private cardRows(accountId: string, statusPageId: string) {
    return statement(
      this.db,
      "SELECT id, name FROM status_page_cards WHERE account_id = ? AND status_page_id = ? ORDER BY position",
    )
      .all(accountId, statusPageId)
      .map((row) => ({ id: String(row.id), name: String(row.name) }));
  }

  /** A page as the reference shows it: what it was sent, else the defaults (`AUTO`, `null`). */
  private render(accountId: string, row: Record<string, unknown>): StatusPage {
    const pageId = String(row.id);
    const cards = this.cardRows(accountId, pageId).map((card) => {
      const ids = statement(
        this.db,
        "SELECT service_id FROM status_page_card_services WHERE account_id = ? AND card_id = ? ORDER BY position",
      )
        .all(accountId, card.id)
        .map((service) => String(service.service_id));
      const services = this.services.byIds(accountId, ids);
      return { ...card, services: ids.map((id) => services.get(id) ?? { id, accountId }) };
    });
    const look = this.look(accountId, pageId);
    return {
      id: pageId,
      name: String(row.name),
      url: String(row.url),
      accountId,
      customDomain: row.custom_domain === null ? null : String(row.custom_domain),
      description: look.description ?? null,
      cards,
      logo: look.logo ?? null,
      logoDark: look.logoDark ?? null,
      redirectTo: look.redirectTo ?? null,
      favicon: look.favicon ?? null,
      defaultTheme: look.defaultTheme ?? "AUTO",
      themeColors: look.themeColors ?? null,
      whiteLabel: false,
      created_at: toIso(Number(row.created_ms)),
      updated_at: toIso(Number(row.updated_ms)),
    };
  }
}
