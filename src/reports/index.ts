export {
  AppliedFileError,
  readAppliedFile,
  readAppliedInput,
  type StackRecords,
  stackRecordsOf,
} from "./drift/applied";
export {
  computeDrift,
  type DriftDefinition,
  type DriftOptions,
  type IncidentUpdatesReader,
} from "./drift/compute";
export { lastCommitTime } from "./drift/git-baseline";
export { DRIFT_FORMATS, type DriftFormat, renderDrift } from "./drift/render";
export {
  DefinitionDrift,
  DRIFT_REPORT_KIND,
  DriftReport,
  DriftState,
  DriftUpdate,
} from "./drift/report-schema";
export {
  type CollectOptions,
  type CollectProgress,
  type CollectStats,
  collectErrorGroups,
  type ErrorGroupReader,
} from "./errors/collect";
export { ReportComparison } from "./errors/compare";
export { PreviousReportError, readPreviousReport } from "./errors/previous-report";
export { type ErrorReportOutcome, writeErrorReport } from "./errors/render";
export { ERROR_REPORT_FORMATS, type ErrorReportFormat } from "./errors/report-input";
export {
  ERROR_REPORT_KIND,
  ErrorReport,
  ErrorReportGroup,
  GroupChange,
} from "./errors/report-schema";
export { checkAbsence, heartbeatAbsence } from "./evidence/absent";
export {
  type EvidenceItem,
  evidenceLine,
  evidenceMarkdown,
  evidenceText,
} from "./evidence/line";
export { type EvidenceReader, type IncidentEvidence, readEvidence } from "./evidence/read";
export { collectHeartbeats, type HeartbeatReader } from "./heartbeats/collect";
export {
  HEARTBEAT_REPORT_FORMATS,
  type HeartbeatReportFormat,
  writeHeartbeatReport,
} from "./heartbeats/render";
export {
  HEARTBEAT_REPORT_KIND,
  HeartbeatReport,
  HeartbeatReportCheck,
  PeriodSide,
  PeriodSuccess,
  SuccessRatios,
} from "./heartbeats/report-schema";
export { parseFlagDuration, parseSince, parseUntil, WindowError } from "./heartbeats/window";
export {
  collectIncidents,
  type DefinedIncident,
  type IncidentReader,
  type IncidentReportRequest,
} from "./incident/collect";
export { IncidentNotFoundError } from "./incident/errors";
export {
  INCIDENT_REPORT_FORMATS,
  type IncidentReportFormat,
  writeIncidentReport,
} from "./incident/render";
export {
  INCIDENT_REPORT_KIND,
  IncidentReport,
  IncidentReportIncident,
  TimelineEntry,
  TimelineKind,
} from "./incident/report-schema";
export {
  type CheckLister,
  type CheckNames,
  type CheckNamesRead,
  checkNamed,
  readCheckNames,
} from "./shared/check-names";
export { openSink, type ReportSink } from "./shared/output";
