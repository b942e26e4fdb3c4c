// The profile page's own part for the player it is, in the browser they play on: their
// archive, and deleting their account (docs/spec/players.md, "Your data"). The page is
// the server's; the game's token is in this origin's storage, as the game keeps it.

const main = document.querySelector("main[data-name]");
const yours = document.getElementById("yours");
const said = document.getElementById("yours-said");
const [name, token] = (localStorage.getItem("player") ?? "").split(" ");
const api = main?.dataset.api ?? "";

if (main && yours && token && name.toLowerCase() === main.dataset.name.toLowerCase()) {
  yours.hidden = false;
  document.getElementById("export").addEventListener("click", download);
  document.getElementById("delete").addEventListener("click", remove);
}

function say(text) {
  said.textContent = text;
}

// The server's sentence, or the status when it sent none.
async function refusal(response) {
  return (await response.text()).trim() || `the server answered ${response.status}`;
}

async function download() {
  say("gathering every run the server holds of you…");
  try {
    const response = await fetch(`${api}/v1/export`, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) return say(await refusal(response));
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = `typepper-${name}.tar`;
    document.body.append(link);
    link.click();
    link.remove();
    // Not at once: the browser reads the blob after the click returns.
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    say(`saved as ${link.download}: each run's replay, and index.json`);
  } catch (e) {
    say(`the archive didn't come: ${e.message}`);
  }
}

async function remove() {
  const sure = confirm(
    `Delete ${name}'s account? Its runs leave the boards and their links at once, every ` +
      "device is unlinked, and its rows are gone within a day. This can't be undone.",
  );
  if (!sure) return;
  try {
    const response = await fetch(`${api}/v1/players/me`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${token}` },
    });
    if (!response.ok) return say(await refusal(response));
    const gone = await response.json();
    // This browser's game is linked to no one now.
    localStorage.removeItem("player");
    document.getElementById("export").disabled = true;
    document.getElementById("delete").disabled = true;
    say(`deleted: ${gone.name}'s runs are off the boards and links; the name is free from ${gone.name_free_from.slice(0, 10)}`);
  } catch (e) {
    say(`not deleted: ${e.message}`);
  }
}
