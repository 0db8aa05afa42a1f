import { readFileSync } from "node:fs";
import type { EngineEvent, OpType } from "@pulumi/pulumi/automation";
import { INCIDENT_TYPE, type PageChanges } from "../incident";

/** What the engine did to one incident in a run. */
export interface IncidentStep {
  /** The resource name (the definition's `resource`). */
  resource: string;
  /** The incident id on the status page, when the engine reported the resource's inputs. */
  incidentId?: string;
  /** For a delete: what removing the definition does (`release` or `resolve`). */
  onRemove?: string;
  op: OpType;
  /** Fields that differ between the old and new inputs, as the engine lists them. */
  diffs: string[];
  /** The engine's error for this incident, when the step failed. */
  error?: string;
  /** Warnings the engine printed for this incident. */
  warnings: string[];
  /**
   * The incident a failed step kept in the state (Pulumi's partial failure): made before what
   * failed after it, such as an incident opened whose second update's post failed.
   */
  keptIncidentId?: string;
  /** The state before the step (the last apply), when the engine reported it. */
  previous?: Record<string, unknown>;
  /** The inputs of the step (the declaration and this run's observation). */
  inputs?: Record<string, unknown>;
  /** Fields changed on the status page that the step puts back (`markPageChanges`). */
  pageChanges?: PageChanges;
  /** The definition's name, for a step the engine reported no inputs of (a failed check). */
  definedName?: string;
}

export interface EngineRunEvents {
  incidents: IncidentStep[];
  /** Errors and warnings not tied to one incident (the program's, the engine's). */
  diagnostics: { severity: "error" | "warning"; message: string }[];
  /** Per operation, incidents only (the stack itself is not counted). */
  changes: Partial<Record<OpType, number>>;
  durationSeconds: number | undefined;
}

/** Reads the engine's event log (`--event-log`) of one run. */
export function readEngineEvents(file: string): EngineRunEvents {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // No log: the CLI failed before the engine started; its stderr says why.
  }
  const events = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as EngineEvent];
      } catch {
        return [];
      }
    });
  return summarizeEvents(events);
}

/** Folds engine events into the steps, diagnostics and counts of one run. */
export function summarizeEvents(events: readonly EngineEvent[]): EngineRunEvents {
  const steps = new Map<string, IncidentStep>();
  const diagnostics: EngineRunEvents["diagnostics"] = [];
  let durationSeconds: number | undefined;
  const stepOf = (urn: string): IncidentStep => {
    const resource = urn.slice(urn.lastIndexOf("::") + 2);
    const existing = steps.get(resource);
    if (existing) return existing;
    const created: IncidentStep = { resource, op: "same", diffs: [], warnings: [] };
    steps.set(resource, created);
    return created;
  };
  for (const event of events) {
    const metadata = event.resOutputsEvent?.metadata ?? event.resourcePreEvent?.metadata;
    if (metadata && metadata.type === INCIDENT_TYPE) {
      const step = stepOf(metadata.urn);
      // A replace is reported as several steps; the last one seen is the one to show.
      step.op = metadata.op;
      // A dynamic provider cannot name the fields it changes; the engine's own list is empty
      // then, so the inputs that differ are the fields to show.
      step.diffs = metadata.diffs?.length
        ? metadata.diffs
        : changedInputs(metadata.old?.inputs, metadata.new?.inputs);
      const state = metadata.new ?? metadata.old;
      const incidentId = state?.inputs?.incidentId ?? state?.outputs?.incidentId;
      if (typeof incidentId === "string") step.incidentId = incidentId;
      const onRemove = metadata.old?.outputs?.onRemove;
      if (typeof onRemove === "string") step.onRemove = onRemove;
      if (metadata.old?.outputs) step.previous = metadata.old.outputs;
      if (metadata.new?.inputs) step.inputs = metadata.new.inputs;
    }
    const failed = event.resOpFailedEvent?.metadata;
    if (failed && failed.type === INCIDENT_TYPE) {
      const step = stepOf(failed.urn);
      step.error ??= "failed";
      const kept = failed.new?.outputs?.incidentId;
      if (typeof kept === "string" && kept !== "") {
        step.incidentId = kept;
        step.keptIncidentId = kept;
      }
    }
    const diagnostic = event.diagnosticEvent;
    // What our provider plugin writes to its stderr reaches the engine as `info#err`; its own
    // notices are warnings to the person running, once each.
    if (
      diagnostic?.severity === "info#err" &&
      PLUGIN_NOTICE.test(cleanDiagnostic(diagnostic.message))
    ) {
      const message = cleanDiagnostic(diagnostic.message);
      if (!diagnostics.some((seen) => seen.message === message)) {
        diagnostics.push({ severity: "warning", message });
      }
    }
    if (diagnostic && (diagnostic.severity === "error" || diagnostic.severity === "warning")) {
      const message = cleanDiagnostic(diagnostic.message);
      if (diagnostic.urn?.includes(`::${INCIDENT_TYPE}::`)) {
        const step = stepOf(diagnostic.urn);
        if (diagnostic.severity === "error") step.error = message;
        else step.warnings.push(message);
      } else if (message !== "" && !isEngineNoise(message)) {
        diagnostics.push({ severity: diagnostic.severity, message });
      }
    }
    if (event.summaryEvent) durationSeconds = event.summaryEvent.durationSeconds;
  }
  const incidents = [...steps.values()];
  const changes: EngineRunEvents["changes"] = {};
  for (const step of incidents) changes[step.op] = (changes[step.op] ?? 0) + 1;
  return { incidents, diagnostics, changes, durationSeconds };
}

/**
 * A notice our provider plugin writes to its stderr: the 0.1-state deprecation
 * (providers/legacy-deprecation.ts) and a removed resource released rather than resolved.
 */
const PLUGIN_NOTICE = /^incident-sync: /;

/** The engine's message without colour codes, its own prefixes and trailing blank lines. */
function cleanDiagnostic(message: string): string {
  return (
    message
      // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what is removed.
      .replace(/\u001b\[[0-9;]*m|<\{%[^%]*%\}>/g, "")
      .replace(/^error: /, "")
      // A failure that kept what it made (a partial failure): the engine lists its one reason.
      .replace(/^1 error occurred:\s*\*\s*/, "")
      .replace(/^Running program '[^']*' failed with an unhandled exception:\n/, "")
      // A failure of the provider's check: the reason is what a person needs.
      .replace(/^\S+ resource '[^']*': property \S+ value \{.*?\} has a problem: /, "")
      .trim()
  );
}

/**
 * The top-level inputs whose values differ, the provider's own bookkeeping left out. An
 * observation that differs only in when the service last changed the incident, or in what the
 * page shows of fields git changed (both kept while git and the status page differ: `observe`),
 * saw nothing new on the status page: a change there changes the fields' digest.
 */
function changedInputs(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): string[] {
  if (!before || !after) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const seen = (inputs: Record<string, unknown>, key: string) =>
    JSON.stringify(key === "observed" ? pageSeen(inputs[key]) : inputs[key]);
  return [...keys]
    .filter((key) => key !== "__provider")
    .filter((key) => seen(before, key) !== seen(after, key))
    .sort();
}

function pageSeen(observed: unknown): unknown {
  if (typeof observed !== "object" || observed === null) return observed;
  const { changedAt: _changedAt, shown: _shown, ...rest } = observed as Record<string, unknown>;
  return rest;
}

/**
 * Lines the engine adds after a failure that say nothing a person needs: its summaries, and
 * the program's echo of a resource that failed (its outputs cannot resolve), whose own error
 * is already reported on the resource.
 */
function isEngineNoise(message: string): boolean {
  return (
    /^update failed$|^preview failed$|^refresh failed$|^destroy failed$|^\d+ errors? occurred/.test(
      message,
    ) || /^(<ref \*\d+> )?Error: resource \S+ \[[^\]]+\] failed to register/.test(message)
  );
}
