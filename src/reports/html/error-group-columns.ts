import type { ErrorGroup } from "../../api/schemas";
import type { Column } from "./table-data";

/**
 * The columns every HTML table of error groups starts with (check, group, the cleaned and the
 * raw message, first and last seen); each report adds its own last column.
 */
export function errorGroupColumns<G extends ErrorGroup>(): Column<G>[] {
  return [
    { key: "check", label: "Check", kind: "id", value: (g) => g.checkId },
    { key: "group", label: "Group", kind: "id", value: (g) => g.id },
    { key: "message", label: "Message", kind: "text", value: (g) => g.cleanedErrorMessage },
    { key: "raw", label: "Raw message", kind: "mono", value: (g) => g.rawErrorMessage },
    { key: "firstSeen", label: "First seen", kind: "time", value: (g) => g.firstSeen },
    { key: "lastSeen", label: "Last seen", kind: "time", value: (g) => g.lastSeen },
  ];
}
