/** Writing the latest figures into the docs, between `<!-- name:begin -->` and `<!-- name:end -->`. */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** Replaces what stands between the markers `name` in docs/<file>; says so on the console. */
export const writeSection = (file: string, name: string, content: string): void => {
  const path = join(import.meta.dirname, "..", "..", "..", "docs", file)
  const doc = readFileSync(path, "utf8")
  const begin = `<!-- ${name}:begin -->`
  const end = `<!-- ${name}:end -->`
  const i = doc.indexOf(begin)
  const j = doc.indexOf(end)
  if (i < 0 || j <= i) {
    console.log(`docs/${file} has no ${begin} ... ${end} section; nothing written`)
    return
  }
  writeFileSync(path, `${doc.slice(0, i + begin.length)}\n${content}\n${doc.slice(j)}`)
  console.log(`updated docs/${file}`)
}
