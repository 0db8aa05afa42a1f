import type { DatabaseSync } from "node:sqlite";
import type { StatusPage, StatusPageList } from "../../api/schemas";
import { statement, transaction } from "../database";
import { notFound } from "../http-error";
import { nameUuid } from "../name-uuid";
import { toIso } from "../time";
import { type ListedRows, listPage } from "./list-cursor";
import type { ServiceStore } from "./services";

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
}

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
      ).run(accountId, page.id, page.name, page.url, page.customDomain, atMs, atMs);
      for (const card of this.cardRows(accountId, page.id)) {
        statement(
          this.db,
          "DELETE FROM status_page_card_services WHERE account_id = ? AND card_id = ?",
        ).run(accountId, card.id);
      }
      statement(
        this.db,
        "DELETE FROM status_page_cards WHERE account_id = ? AND status_page_id = ?",
      ).run(accountId, page.id);
      page.cards.forEach((card, position) => {
        const cardId = nameUuid(`${accountId}/status-page/${page.id}/card/${position}`);
        statement(
          this.db,
          "INSERT INTO status_page_cards (account_id, status_page_id, position, id, name) VALUES (?, ?, ?, ?, ?)",
        ).run(accountId, page.id, position, cardId, card.name);
        card.serviceIds.forEach((serviceId, at) => {
          statement(
            this.db,
            "INSERT INTO status_page_card_services (account_id, card_id, position, service_id) VALUES (?, ?, ?, ?)",
          ).run(accountId, cardId, at, serviceId);
        });
      });
    });
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

  /** A page as the reference shows it; the emulator keeps no theme, so it answers the defaults. */
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
    return {
      id: pageId,
      name: String(row.name),
      url: String(row.url),
      accountId,
      customDomain: row.custom_domain === null ? null : String(row.custom_domain),
      cards,
      logo: null,
      redirectTo: null,
      favicon: null,
      defaultTheme: "AUTO",
      themeColors: null,
      whiteLabel: false,
      created_at: toIso(Number(row.created_ms)),
      updated_at: toIso(Number(row.updated_ms)),
    };
  }
}
