/** What a CLI command may touch of its process: streams, env and exit status. Tests pass fakes. */
export interface CliIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /**
   * The file descriptor behind `stdout` in a real process (1): a command that prints one short
   * answer may write it synchronously instead of building the stream. Tests leave it out.
   */
  readonly stdoutFd?: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export type CliCommand = (args: string[], io: CliIO) => Promise<number>;

/** Exit code for usage errors, shared by every command. */
export const EXIT_USAGE = 2;
