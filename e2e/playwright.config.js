// Browser tests: Playwright driving Debian's Chromium against a real typepper server.
// `cargo xtask test` builds the game and the server, starts the server on a free port and
// runs these with TYPEPPER_URL (the server) and TYPEPPER_CLI (the typepper binary) set.
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "tests",
  // One worker: the machine has two cores and the server one database.
  workers: 1,
  retries: 0,
  timeout: 90_000,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: process.env.TYPEPPER_URL ?? "http://127.0.0.1:8080",
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 2,
    launchOptions: {
      executablePath: process.env.TYPEPPER_CHROMIUM ?? "/usr/bin/chromium",
      // Without these, Chromium reaches for Google's hosts, which this network refuses.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
