// typepper's JavaScript glue: load the wasm and hand it the page. Everything else is Rust.
import init, { start } from "./pkg/typepper_web.js";

const api = document.querySelector('meta[name="typepper-api"]')?.content ?? "";
await init();
window.typepper = await start(api);
