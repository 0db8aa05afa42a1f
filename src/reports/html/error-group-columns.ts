import type { ErrorGroup } from "../../api/schemas";
import { type CheckNames, checkNamed } from "../shared/check-names";
import type { Column } from "./table-data";

/**
 * The columns every HTML table of error groups starts with (the check by its name, group, the
 * cleaned and the raw message, first and last seen); each report adds its own last column.
 */
export function errorGroupColumns<G extends ErrorGroup>(checkNames: CheckNames = {}): Column<G>[] {
  return [
    { key: "check", label: "Check", kind: "id", value: (g) => checkNamed(g.checkId, checkNames) },
    { key: "group", label: "Group", kind: "id", value: (g) => g.id },
    { key: "message", label: "Message", kind: "text", value: (g) => g.cleanedErrorMessage },
    { key: "raw", label: "Raw message", kind: "mono", value: (g) => g.rawErrorMessage },
    { key: "firstSeen", label: "First seen", kind: "time", value: (g) => g.firstSeen },
    { key: "lastSeen", label: "Last seen", kind: "time", value: (g) => g.lastSeen },
  ];
}
