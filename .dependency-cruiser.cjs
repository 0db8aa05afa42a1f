// The layering of ARCHITECTURE.md, checked by `npm run lint` (dependency-cruiser). Each layer
// imports only itself and the layers below it; type-only imports count, since they are what
// makes a layer hard to change too. Lowest first:
//   src/user-error.ts, src/safe-text.ts, src/markdown.ts, src/plural.ts, src/named.ts,
//   src/github-annotation.ts, src/package-*.ts, src/project-write.ts, src/suggest.ts,
//   src/compile-cache.ts   leaves
//   src/api                the typed client, route table and schemas
//   src/settings/catalog.ts   every setting's name, bound and default (the client's own numbers
//                          read from src/api/client/defaults.ts): every layer above reads it
//   src/emulator           the other side of HTTP: src/api only
//   src/definitions        YAML → definitions
//   src/incident           the incident's rules
//   src/settings           settings as each reader names them
//   providers/, src/program, src/plan, src/reports   (the program declares providers' Incident)
//   src/engine             runs the program on the Pulumi CLI, reads its outputs, and
//                          starts the emulator for npm start
//   src/cli, src/index.ts, index.ts                  the entry points
// test/architecture.test.ts holds the rules to a planted upward import.

/** A rule forbidding `from` to import any of `above`. */
const below = (name, comment, from, above) => ({
  name,
  comment,
  severity: "error",
  from: { path: from },
  to: { path: above },
});

const ENTRY = "^src/(cli/|index\\.ts$)|^index\\.ts$";

/** The leaves, below src/: modules that import nothing of this project but other leaves, so any layer may. */
const LEAVES =
  "user-error\\.ts$|safe-text\\.ts$|markdown\\.ts$|plural\\.ts$|named\\.ts$|github-annotation\\.ts$|package-(version|root)\\.ts$|peer-packages\\.ts$|project-write\\.ts$|suggest\\.ts$|compile-cache\\.ts$";

/** The settings catalog, below src/: what every layer above src/api may read besides the leaves. */
const CATALOG = "settings/catalog\\.ts$";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No cycle between files, type-only imports included.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    below(
      "leaves-import-nothing",
      "The leaves import nothing of this project (the package version reads the package root; the optional packages' check and the project's writer throw user errors; Markdown, annotations and the writer call the sanitiser).",
      `^src/(${LEAVES})`,
      "^(src/(?!package-root\\.ts$|user-error\\.ts$|safe-text\\.ts$)|providers/|index\\.ts$)",
    ),
    below(
      "api-is-the-base",
      "src/api imports nothing of this project but the leaves: not the settings catalog, which reads the client's defaults (src/api/client/defaults.ts).",
      "^src/api/",
      `^(src/(?!api/|${LEAVES})|providers/|index\\.ts$)`,
    ),
    below(
      "catalog-reads-only-the-client-defaults",
      "The settings catalog reads the client's own numbers and nothing else, so --help loads neither zod nor the client.",
      `^src/${CATALOG}`,
      "^(src/(?!api/client/defaults\\.ts$)|providers/|index\\.ts$)",
    ),
    below(
      "emulator-shares-only-the-api",
      "src/emulator shares only src/api's schemas and route table, and the leaves.",
      "^src/emulator/",
      `^(src/(?!api/|emulator/|${LEAVES})|providers/|index\\.ts$)`,
    ),
    below(
      "definitions-below-incident",
      "src/definitions knows nothing of incidents' rules, settings, the engine or any reader.",
      "^src/definitions/",
      `^(src/((?!${CATALOG})(incident|settings)|program|plan|reports|engine|cli|emulator)/|providers/|src/index\\.ts$|index\\.ts$)`,
    ),
    below(
      "incident-below-its-readers",
      "src/incident holds the rules every reader calls; it calls none of them.",
      "^src/incident/",
      `^(src/((?!${CATALOG})settings|program|plan|reports|engine|cli|emulator)/|providers/|src/index\\.ts$|index\\.ts$)`,
    ),
    below(
      "settings-read-no-definition",
      "src/settings names settings and reads the client; a helper it shares with src/definitions (did you mean …?) is a leaf.",
      "^src/settings/",
      "^src/(definitions|incident)/",
    ),
    below(
      "settings-below-its-readers",
      "src/settings names settings for the layers that read them.",
      "^src/settings/",
      "^(src/(program|plan|reports|engine|cli|emulator)/|providers/|src/index\\.ts$|index\\.ts$)",
    ),
    below(
      "provider-is-a-thin-shell",
      "providers/ calls src/incident (and the client, settings); it reads no definition itself.",
      "^providers/",
      "^(src/(definitions|program|plan|reports|engine|cli|emulator)/|src/index\\.ts$|index\\.ts$)",
    ),
    below(
      "readers-below-the-engine",
      "The program, plan and reports do not run the engine or the command line.",
      "^src/(program|plan|reports)/",
      `^src/(engine|cli|emulator)/|${ENTRY}`,
    ),
    below(
      "readers-side-by-side",
      "plan and reports do not import each other or the program; the program declares providers' Incident.",
      "^src/(plan|reports)/",
      "^(src/program/|providers/)",
    ),
    below(
      "engine-below-the-cli",
      "src/engine runs the program (and npm start's emulator); the command line calls it.",
      "^src/engine/",
      ENTRY,
    ),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
