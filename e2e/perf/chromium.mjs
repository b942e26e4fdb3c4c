// What the figures' scripts share: the server they measure, headless Chromium as they
// launch it, and a percentile.
import { chromium } from "@playwright/test";

export const url = process.env.TYPEPPER_URL ?? "http://127.0.0.1:8080";

/** Headless Chromium with nothing of its own running in the background. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.TYPEPPER_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** The `p`th percentile of `xs`. */
export function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
}
