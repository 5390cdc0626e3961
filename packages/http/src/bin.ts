/** Entry point of the `osiris` command. */
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { run } from "./Cli.js"

run(process.argv).pipe(Effect.provide(NodeContext.layer), NodeRuntime.runMain({ disableErrorReporting: false }))
