/**
 * The reference host as a real process (`npm start`'s program, `packages/http/bin/host.mjs`), for
 * suites and tools that need what only a process shows: SIGKILL and SIGTERM, several replicas on one
 * database, the quick start's output.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

/** The host program of the installed `@osiris/http`. */
const program = () => join(dirname(createRequire(import.meta.url).resolve("@osiris/http")), "..", "bin", "host.mjs")

/** A running host process. */
export interface HostProcess {
  readonly proc: ChildProcess
  /** `http://127.0.0.1:<port>`, the address it listens on. */
  readonly base: string
  readonly pid: number
  /** Everything it printed (stdout and stderr). */
  readonly output: () => string
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>
  /** SIGTERM, then the exit code. */
  readonly stop: () => Promise<number | null>
}

/**
 * Starts the host with `env` over this process's environment (default `PORT=0`, rate limit off);
 * resolves when it says it listens, rejects if it exits first or takes over 60 s.
 */
export const start = (env: Record<string, string> = {}) =>
  new Promise<HostProcess>((resolve, reject) => {
    const proc = spawn(process.execPath, [program()], {
      env: { ...process.env, PORT: "0", OSIRIS_RATE_LIMIT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)))
    const timer = setTimeout(() => reject(new Error(`the host did not start:\n${out}`)), 60_000)
    const onData = (d: Buffer) => {
      out += d.toString()
      if (out.length > 1_000_000) out = out.slice(-100_000)
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        resolve({
          proc,
          base: m[1]!,
          pid: proc.pid!,
          output: () => out,
          exited,
          stop: () => {
            proc.kill("SIGTERM")
            return exited
          }
        })
      }
    }
    proc.stdout!.on("data", onData)
    proc.stderr!.on("data", onData)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the host exited (${code}):\n${out}`))
    })
  })
