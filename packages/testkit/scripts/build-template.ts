/**
 * Writes the embedded database template the testkit ships (data/embedded-template.tar.gz and its key):
 * a fresh PGlite after the host's migrations, dumped gzipped. Run after adding a migration or
 * upgrading PGlite (`npm run fixtures`); the testkit's suite fails while the shipped one is stale.
 */
import { writeFileSync } from "node:fs"
import * as Template from "../src/Template.js"

const dump = await Template.build("gzip")
writeFileSync(Template.files.dump, Buffer.from(await dump.arrayBuffer()))
writeFileSync(Template.files.key, JSON.stringify(Template.currentKey(), null, 2) + "\n")
console.log(`wrote ${Template.files.dump.pathname} (${dump.size} bytes)`)
