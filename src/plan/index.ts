export { buildPlan, type PlanInput, withFindings } from "./build";
export { diffDefinitions } from "./diff";
export { checkPolicy } from "./policy";
export { PLAN_COMMENT_MARKER, renderPlanMarkdown } from "./render-markdown";
export { renderPlanText } from "./render-text";
export type {
  FieldChange,
  IncidentChange,
  ListChanges,
  Plan,
  PlanField,
  PlanVerdict,
  PolicyFinding,
  PolicyRule,
  ServiceChanges,
} from "./types";
