import {
  backendStacks,
  describeBackend,
  fileBackendStacks,
  isSelfManagedBackend,
  type KnownStacks,
  type ProjectInfo,
  parseStackName,
  projectOf,
  SELF_MANAGED_ORGANIZATION,
  selfManagedNameProblem,
  stackFilesOf,
} from "../definitions";
import { UsageError } from "./usage-error";

/** The project a definitions directory is in, and the stacks `validate` and `plan` know of it. */
export interface ProjectStacks {
  readonly project: ProjectInfo | undefined;
  /** `PULUMI_BACKEND_URL`, else `backend.url` of `Pulumi.yaml`. */
  readonly backendUrl: string | undefined;
  readonly known: KnownStacks;
}

/**
 * The project's stacks as a command that runs no engine can know them: the `Pulumi.<stack>.yaml`
 * files, the stacks of a `file://` backend (read from disk; another backend needs the Pulumi
 * CLI and its login, which `up`, `preview` and `refresh` have), and the `--stack` given, which
 * counts only beside them: one name is no list of the project's stacks. A `--stack` that
 * the project's self-managed backend cannot have is refused in our words.
 */
export function projectStacks(
  definitionsDir: string,
  env: NodeJS.ProcessEnv,
  given?: string,
): ProjectStacks {
  const project = projectOf(definitionsDir);
  const backendUrl = env.PULUMI_BACKEND_URL || project?.backendUrl || undefined;
  const selfManaged =
    backendUrl !== undefined && isSelfManagedBackend(backendUrl)
      ? describeBackend(backendUrl)
      : undefined;
  const refused =
    given !== undefined && selfManaged !== undefined
      ? selfManagedNameProblem(given, selfManaged)
      : undefined;
  if (refused !== undefined) throw new UsageError(`--stack ${refused}`);
  if (project === undefined) return { project, backendUrl, known: { stacks: [], sources: [] } };
  const files = stackFilesOf(
    project.dir,
    project.name,
    selfManaged === undefined ? undefined : SELF_MANAGED_ORGANIZATION,
  );
  const backend =
    backendUrl !== undefined && project.name !== undefined
      ? backendStacks(fileBackendStacks(backendUrl, project.name))
      : [];
  if (files.length + backend.length === 0) {
    return { project, backendUrl, known: { stacks: [], sources: [] } };
  }
  return {
    project,
    backendUrl,
    known: {
      stacks: [...files, ...backend, ...(given === undefined ? [] : [parseStackName(given)])],
      sources: [
        ...(files.length > 0 ? ["the Pulumi.<stack>.yaml files beside Pulumi.yaml"] : []),
        ...(backend.length > 0 && backendUrl !== undefined
          ? [`the stacks in ${describeBackend(backendUrl)}`]
          : []),
        ...(given === undefined ? [] : ["--stack"]),
      ],
      selfManaged,
    },
  };
}
