import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { text } from "node:stream/consumers";
import { fitComment } from "../../markdown";
import { openSink } from "../../reports/shared/output";
import { ExitCode } from "../exit-codes";
import type { CommandIo } from "../io";

/** The flags of `fit-comment` as commander parses them. */
export interface FitCommentFlags {
  maxLength: number;
  link?: string;
  out?: string;
}

export async function runFitComment(
  file: string,
  flags: FitCommentFlags,
  io: CommandIo,
): Promise<ExitCode> {
  const markdown =
    file === "-" ? await text(process.stdin) : await readFile(resolve(io.cwd, file), "utf8");
  const sink = openSink(flags.out, io.stdout, io.cwd);
  try {
    await sink.write(fitComment(markdown, flags.maxLength, flags.link));
    await sink.commit();
  } catch (error) {
    await sink.abort();
    throw error;
  }
  return ExitCode.Ok;
}
